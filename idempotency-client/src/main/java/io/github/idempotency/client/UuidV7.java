package io.github.idempotency.client;

import java.security.SecureRandom;
import java.util.Random;
import java.util.UUID;
import java.util.function.LongSupplier;

import org.springframework.util.Assert;

/**
 * Generates RFC 9562 version 7 UUIDs: a 48-bit Unix-millisecond timestamp, the version and
 * variant bits, and random bits, strictly increasing for one generator even within a
 * millisecond or when the clock steps back.
 */
public final class UuidV7 {

	private static final UuidV7 SHARED = new UuidV7(System::currentTimeMillis, new SecureRandom());

	private static final long MAX_TIMESTAMP = (1L << 48) - 1;

	private static final int MAX_RAND_A = (1 << 12) - 1;

	private static final long MAX_RAND_B = (1L << 62) - 1;

	private final LongSupplier millisClock;

	private final Random random;

	private long lastMillis = -1;

	private int randA;

	private long randB;

	/**
	 * Create a generator.
	 * @param millisClock the source of Unix milliseconds
	 * @param random the source of random bits
	 */
	public UuidV7(LongSupplier millisClock, Random random) {
		Assert.notNull(millisClock, "'millisClock' must not be null");
		Assert.notNull(random, "'random' must not be null");
		this.millisClock = millisClock;
		this.random = random;
	}

	/**
	 * Return a new UUIDv7 from a shared generator that uses the system clock and a
	 * {@link SecureRandom}.
	 * @return a new UUID
	 */
	public static UUID randomUuid() {
		return SHARED.next();
	}

	/**
	 * Return the Unix-millisecond timestamp of a version 7 UUID.
	 * @param uuid the UUID
	 * @return its timestamp in milliseconds
	 * @throws IllegalArgumentException if the UUID is not version 7
	 */
	public static long timestampMillis(UUID uuid) {
		Assert.isTrue(uuid.version() == 7, () -> "Not a version 7 UUID: " + uuid);
		return uuid.getMostSignificantBits() >>> 16;
	}

	/**
	 * Return the next UUID of this generator, greater than every UUID it returned before.
	 * @return a new UUID
	 */
	public synchronized UUID next() {
		long now = this.millisClock.getAsLong() & MAX_TIMESTAMP;
		if (now > this.lastMillis) {
			this.lastMillis = now;
			// keep the top bit clear so that increments within this millisecond have room
			this.randA = this.random.nextInt(1 << 11);
			this.randB = this.random.nextLong() & MAX_RAND_B;
		}
		else {
			// same millisecond, or the clock stepped back: a random increment keeps the order
			// and keeps the next value hard to guess
			this.randB += 1 + (this.random.nextLong() >>> 32);
			if (this.randB > MAX_RAND_B) {
				this.randB &= MAX_RAND_B;
				this.randA++;
				if (this.randA > MAX_RAND_A) {
					this.randA = 0;
					this.lastMillis = (this.lastMillis + 1) & MAX_TIMESTAMP;
				}
			}
		}
		long msb = (this.lastMillis << 16) | 0x7000L | this.randA;
		long lsb = Long.MIN_VALUE | this.randB;
		return new UUID(msb, lsb);
	}

}
