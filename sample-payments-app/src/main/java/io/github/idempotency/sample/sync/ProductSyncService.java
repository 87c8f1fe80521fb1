package io.github.idempotency.sample.sync;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.OptimisticLockException;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Applies product syncs under optimistic locking: an update is applied only to the version it was
 * built on, and raises the version by one, even when it changes nothing.
 */
@Service
public class ProductSyncService {

	private final EntityManager entityManager;

	private final SyncRows rows;

	ProductSyncService(EntityManager entityManager, SyncRows rows) {
		this.entityManager = entityManager;
		this.rows = rows;
	}

	/**
	 * Create or update a product.
	 * @param id the product id
	 * @param request the request, checked by {@link SyncKeys}
	 * @return the product after the sync
	 * @throws StaleVersionException if the product is past the base version, or another
	 * transaction moved it past while this one applied the update
	 */
	@Transactional
	public Synced<ProductView> sync(String id, ProductSyncRequest request) {
		SyncTarget target = new SyncTarget(SyncKeys.PRODUCT, id, request.baseVersion());
		Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
		Product product = this.entityManager.find(Product.class, id);
		if (product == null) {
			target.requireCurrent(0);
			return new Synced<>(this.rows.insertProduct(id, request, now), true);
		}
		target.requireCurrent(product.getVersion());
		try {
			if (!product.apply(request, now)) {
				this.entityManager.lock(product, LockModeType.PESSIMISTIC_FORCE_INCREMENT);
			}
			this.entityManager.flush();
		}
		catch (OptimisticLockException ex) {
			throw new StaleVersionException(target, this.rows.currentVersion(SyncKeys.PRODUCT, id));
		}
		return new Synced<>(ProductView.of(product), false);
	}

	/**
	 * Return a product.
	 * @param id the product id
	 * @return the product
	 * @throws SyncedEntityNotFoundException if there is no such product
	 */
	@Transactional(readOnly = true)
	public ProductView find(String id) {
		Product product = this.entityManager.find(Product.class, id);
		if (product == null) {
			throw new SyncedEntityNotFoundException(SyncKeys.PRODUCT, id);
		}
		return ProductView.of(product);
	}

}
