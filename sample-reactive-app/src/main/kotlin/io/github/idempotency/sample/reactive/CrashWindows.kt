package io.github.idempotency.sample.reactive

import kotlinx.coroutines.awaitCancellation
import org.slf4j.LoggerFactory
import org.springframework.beans.factory.annotation.Value
import org.springframework.stereotype.Component

/**
 * Holds a request at a named point of its payment, for the tests that kill the application there
 * (`kill -9`): only with `sample.crash-windows=true` and a request that asks for it with the
 * `X-Sample-Hold` header.
 */
@Component
class CrashWindows(@Value("\${sample.crash-windows:false}") private val enabled: Boolean) {

	private val logger = LoggerFactory.getLogger(CrashWindows::class.java)

	suspend fun hold(point: String, requested: String?) {
		if (enabled && point == requested) {
			logger.warn("HOLD {}", point)
			awaitCancellation()
		}
	}

}
