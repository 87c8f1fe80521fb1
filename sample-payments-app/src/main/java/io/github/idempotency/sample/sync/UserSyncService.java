package io.github.idempotency.sample.sync;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.OptimisticLockException;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Applies user syncs under optimistic locking, like {@link ProductSyncService}, and appends each
 * consent that changes to the user's consent history, never touching an earlier entry.
 */
@Service
public class UserSyncService {

	private final EntityManager entityManager;

	private final ConsentHistory history;

	private final SyncRows rows;

	UserSyncService(EntityManager entityManager, ConsentHistory history, SyncRows rows) {
		this.entityManager = entityManager;
		this.history = history;
		this.rows = rows;
	}

	/**
	 * Create or update a user and record its consent changes.
	 * @param id the user id
	 * @param request the request, checked by {@link SyncKeys}
	 * @return the user after the sync
	 * @throws StaleVersionException if the user is past the base version, or another transaction
	 * moved it past while this one applied the update
	 */
	@Transactional
	public Synced<UserView> sync(String id, UserSyncRequest request) {
		SyncTarget target = new SyncTarget(SyncKeys.USER, id, request.baseVersion());
		Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
		Map<String, Boolean> requested = (request.consents() != null) ? request.consents() : Map.of();
		SyncedUser user = this.entityManager.find(SyncedUser.class, id);
		if (user == null) {
			target.requireCurrent(0);
			this.rows.insertUser(id, request, now);
			user = this.entityManager.find(SyncedUser.class, id);
			return new Synced<>(view(user, record(user, requested, new TreeMap<>(), now)), true);
		}
		target.requireCurrent(user.getVersion());
		SortedMap<String, Boolean> consents = consents(id);
		try {
			if (!user.apply(request, now)) {
				this.entityManager.lock(user, LockModeType.PESSIMISTIC_FORCE_INCREMENT);
			}
			this.entityManager.flush();
		}
		catch (OptimisticLockException ex) {
			throw new StaleVersionException(target, this.rows.currentVersion(SyncKeys.USER, id));
		}
		return new Synced<>(view(user, record(user, requested, consents, now)), false);
	}

	/**
	 * Return a user.
	 * @param id the user id
	 * @return the user with its current consents
	 * @throws SyncedEntityNotFoundException if there is no such user
	 */
	@Transactional(readOnly = true)
	public UserView find(String id) {
		return view(require(id), consents(id));
	}

	/**
	 * Return a user's consent history.
	 * @param id the user id
	 * @return every change, oldest first
	 * @throws SyncedEntityNotFoundException if there is no such user
	 */
	@Transactional(readOnly = true)
	public List<ConsentChangeView> consentHistory(String id) {
		require(id);
		return this.history.findByUserIdOrderById(id).stream().map(ConsentChangeView::of).toList();
	}

	/**
	 * Append a change for every requested consent that differs from the current one.
	 * @return the consents after the changes
	 */
	private SortedMap<String, Boolean> record(SyncedUser user, Map<String, Boolean> requested,
			SortedMap<String, Boolean> consents, Instant now) {
		new TreeMap<>(requested).forEach((purpose, granted) -> {
			if (!granted.equals(consents.get(purpose))) {
				this.history.save(new ConsentChange(user.getId(), purpose, granted, user.getVersion(), now));
				consents.put(purpose, granted);
			}
		});
		return consents;
	}

	private SortedMap<String, Boolean> consents(String userId) {
		SortedMap<String, Boolean> consents = new TreeMap<>();
		this.history.findByUserIdOrderById(userId)
			.forEach((change) -> consents.put(change.getPurpose(), change.isGranted()));
		return consents;
	}

	private SyncedUser require(String id) {
		SyncedUser user = this.entityManager.find(SyncedUser.class, id);
		if (user == null) {
			throw new SyncedEntityNotFoundException(SyncKeys.USER, id);
		}
		return user;
	}

	private static UserView view(SyncedUser user, SortedMap<String, Boolean> consents) {
		return new UserView(user.getId(), user.getEmail(), user.getDisplayName(), consents, user.getVersion(),
				user.getUpdatedAt());
	}

}
