package io.github.idempotency.client;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link UuidV7}.
 */
class UuidV7Tests {

	private static final long SOME_MILLIS = 1_772_360_130_123L;

	@Test
	void everyUuidHasVersion7AndTheIetfVariant() {
		for (int i = 0; i < 1_000; i++) {
			UUID uuid = UuidV7.randomUuid();
			assertThat(uuid.version()).isEqualTo(7);
			assertThat(uuid.variant()).isEqualTo(2);
		}
	}

	@Test
	void theFirst48BitsAreTheUnixMillisecondsOfTheClock() {
		UuidV7 generator = new UuidV7(() -> SOME_MILLIS, new Random(1));

		UUID uuid = generator.next();

		assertThat(UuidV7.timestampMillis(uuid)).isEqualTo(SOME_MILLIS);
		assertThat(uuid.toString().replace("-", "")).startsWith(String.format("%012x", SOME_MILLIS));
	}

	@Test
	void theSharedGeneratorUsesTheSystemClock() {
		long before = System.currentTimeMillis();
		UUID uuid = UuidV7.randomUuid();
		long after = System.currentTimeMillis();

		assertThat(UuidV7.timestampMillis(uuid)).isBetween(before, after + 1);
	}

	@Test
	void uuidsSortInTheOrderTheyWereMadeAcrossMilliseconds() {
		AtomicLong clock = new AtomicLong(SOME_MILLIS);
		UuidV7 generator = new UuidV7(() -> clock.getAndAdd(3), new Random(2));

		assertStrictlyIncreasing(generate(generator, 10_000));
	}

	@Test
	void uuidsMadeWithinOneMillisecondAreStillStrictlyIncreasing() {
		UuidV7 generator = new UuidV7(() -> SOME_MILLIS, new Random(3));

		List<UUID> uuids = generate(generator, 100_000);

		assertStrictlyIncreasing(uuids);
		assertThat(uuids).allSatisfy((uuid) -> assertThat(uuid.version()).isEqualTo(7));
	}

	@Test
	void uuidsStayIncreasingWhenTheClockStepsBack() {
		long[] times = { SOME_MILLIS, SOME_MILLIS + 5, SOME_MILLIS - 1_000, SOME_MILLIS + 2, SOME_MILLIS + 6 };
		AtomicLong index = new AtomicLong();
		UuidV7 generator = new UuidV7(() -> times[(int) (index.getAndIncrement() % times.length)], new Random(4));

		assertStrictlyIncreasing(generate(generator, 1_000));
	}

	@Test
	void whenTheRandomBitsOverflowWithinAMillisecondTheCounterCarriesAndStaysIncreasing() {
		Random maximal = new Random() {

			@Override
			public int nextInt(int bound) {
				return bound - 1;
			}

			@Override
			public long nextLong() {
				return -1L;
			}

		};
		UuidV7 generator = new UuidV7(() -> SOME_MILLIS, maximal);

		List<UUID> uuids = generate(generator, 5_000);

		assertStrictlyIncreasing(uuids);
		assertThat(uuids.get(0).getMostSignificantBits() & 0xFFF).isEqualTo(0x7FF);
		assertThat(uuids.get(1).getMostSignificantBits() & 0xFFF).isEqualTo(0x800);
		assertThat(uuids).allSatisfy((uuid) -> {
			assertThat(uuid.version()).isEqualTo(7);
			assertThat(uuid.variant()).isEqualTo(2);
			assertThat(UuidV7.timestampMillis(uuid)).isEqualTo(SOME_MILLIS);
		});
	}

	@Test
	void uuidsAreUniqueAcrossManyCallsAndThreadsAndIncreasingWithinEachThread() throws Exception {
		int threads = 8;
		int perThread = 20_000;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Callable<List<UUID>>> tasks = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				tasks.add(() -> {
					List<UUID> uuids = new ArrayList<>(perThread);
					for (int j = 0; j < perThread; j++) {
						uuids.add(UuidV7.randomUuid());
					}
					return uuids;
				});
			}
			Set<UUID> all = new HashSet<>();
			for (Future<List<UUID>> result : executor.invokeAll(tasks)) {
				List<UUID> uuids = result.get();
				assertStrictlyIncreasing(uuids);
				all.addAll(uuids);
			}
			assertThat(all).hasSize(threads * perThread);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void theTimestampOfAUuidThatIsNotVersion7IsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> UuidV7.timestampMillis(UUID.randomUUID()));
	}

	private static List<UUID> generate(UuidV7 generator, int count) {
		List<UUID> uuids = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			uuids.add(generator.next());
		}
		return uuids;
	}

	private static void assertStrictlyIncreasing(List<UUID> uuids) {
		// the canonical text form orders as the unsigned 128-bit value does
		for (int i = 1; i < uuids.size(); i++) {
			assertThat(uuids.get(i).toString()).isGreaterThan(uuids.get(i - 1).toString());
		}
	}

}
