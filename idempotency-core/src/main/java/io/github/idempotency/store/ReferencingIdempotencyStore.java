package io.github.idempotency.store;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.idempotency.IdempotencyKey;

/**
 * A store that keeps the references business code attaches to keys with
 * {@link io.github.idempotency.IdempotencyContext#reference}.
 */
public interface ReferencingIdempotencyStore extends IdempotencyStore {

	/**
	 * Attach a reference to a claimed key at once; attaching the same name and value again
	 * changes nothing. The reference is kept while the key's record lives (released and completed
	 * too) and goes with it: a claim that replaces an expired record forgets the references of the
	 * record it replaces. A store may keep a reference whose record is gone for {@code ttl} from
	 * now, such as one that an ATOMIC rollback left without a record.
	 * @param key the key
	 * @param name the kind of reference, 1 to 64 characters {@code [a-z0-9_.-]}
	 * @param value the reference, 1 to 255 characters
	 * @param ttl how long the reference is kept at least, from now
	 */
	void addReference(IdempotencyKey key, String name, String value, Duration ttl);

	/**
	 * Return the references attached to a key.
	 * @param key the key
	 * @return the values of each name, names and values in their natural order; empty if none
	 */
	Map<String, List<String>> references(IdempotencyKey key);

	/**
	 * Return the keys a reference is attached to, oldest attachment first.
	 * @param name the kind of reference
	 * @param value the reference
	 * @param limit how many keys to return at most
	 * @return the keys
	 */
	List<IdempotencyKey> findByReference(String name, String value, int limit);

}
