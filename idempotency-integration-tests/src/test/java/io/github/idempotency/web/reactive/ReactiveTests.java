package io.github.idempotency.web.reactive;

import reactor.blockhound.BlockHound;

/**
 * What every WebFlux test shares: BlockHound, installed once per JVM, which fails any blocking
 * call on a thread that must not block, such as Reactor Netty's event loop or Reactor's parallel
 * threads.
 */
final class ReactiveTests {

	static {
		// Jackson takes a lock while it builds a deserializer for a type it has not read before: a
		// wait of a first request's microseconds, which BlockHound would otherwise report.
		// Lettuce takes a lock around each command it writes (SharedLock), held for the write alone;
		// a command sent from an event loop may wait for it. BlockHound's error, thrown from inside
		// that lock, would leave Lettuce's count of writers negative: every later command on the
		// connection would then spin forever, an event loop with it (as a request that never
		// ended in CI showed).
		BlockHound.install((builder) -> builder
			.allowBlockingCallsInside("tools.jackson.databind.deser.DeserializerCache",
					"_createAndCacheValueDeserializer")
			.allowBlockingCallsInside("tools.jackson.databind.ser.SerializerCache", "_makeAndStoreValueSerializer")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "doExclusive"));
	}

	private ReactiveTests() {
	}

	/**
	 * Make sure BlockHound is installed.
	 */
	static void installBlockHound() {
		// The static initializer installs it.
	}

}
