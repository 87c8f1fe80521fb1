package io.github.idempotency.redisweb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * What an application on Redis gets wrong stops it at start-up, with a message that names the
 * operation and says what to do.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisStartupCheckTests {

	@Test
	void anAtomicOperationOnRedisFailsTheStartNamingTheOperationAndTheFix(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("idempotency.operations.[POST /payments].mode=atomic"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("operation 'POST /payments' is ATOMIC")
			.contains("idempotency.store.type=jdbc");
	}

	@Test
	void anArchivedOperationOnRedisFailsTheStart(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("idempotency.operations.[POST /payments].archive=true"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("operation 'POST /payments' is archived")
			.contains("archive copies records to a table");
	}

	@Test
	void theJdbcStoreChosenWithoutADataSourceFailsTheStartNamingBothStores(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("idempotency.store.type=jdbc"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("DataSource")
			.contains("spring-boot-starter-data-redis");
	}

	private static void start(String property) {
		new SpringApplicationBuilder(RedisWebApplication.class).properties("server.port=0", property).run().close();
	}

}
