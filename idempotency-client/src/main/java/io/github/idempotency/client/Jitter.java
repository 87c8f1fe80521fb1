package io.github.idempotency.client;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How a computed backoff delay is randomised so that many clients do not retry in lockstep.
 */
public enum Jitter {

	/**
	 * No randomness: the delay is the computed backoff.
	 */
	NONE {

		@Override
		Duration apply(Duration backoff, RandomGenerator random) {
			return backoff;
		}

	},

	/**
	 * A uniformly random delay between zero and the computed backoff.
	 */
	FULL {

		@Override
		Duration apply(Duration backoff, RandomGenerator random) {
			return Duration.ofNanos(randomUpTo(backoff.toNanos(), random));
		}

	},

	/**
	 * Half the computed backoff plus a uniformly random part of up to the other half.
	 */
	EQUAL {

		@Override
		Duration apply(Duration backoff, RandomGenerator random) {
			long half = backoff.toNanos() / 2;
			return Duration.ofNanos(half + randomUpTo(backoff.toNanos() - half, random));
		}

	};

	/**
	 * Apply this jitter to a backoff.
	 * @param backoff the computed backoff
	 * @param random the source of randomness
	 * @return the delay to wait
	 */
	abstract Duration apply(Duration backoff, RandomGenerator random);

	private static long randomUpTo(long inclusiveBound, RandomGenerator random) {
		return (inclusiveBound <= 0) ? 0 : random.nextLong(inclusiveBound + 1);
	}

}
