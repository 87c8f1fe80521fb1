package io.github.idempotency.jpaapp;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests to {@link JpaApplication}: a memo created under a key, then duplicates of it sent at
 * once, each answered with the first response byte for byte.
 */
final class MemoRequests {

	private static final int DUPLICATES = 8;

	private MemoRequests() {
	}

	/**
	 * Create a memo under a new key, send duplicates of the request at once, and check that each
	 * is the first response, long {@code Location} and long body included, and that the memo was
	 * created once.
	 * @param context the running application
	 */
	static void createdOnceAndReplayedByteForByte(ConfigurableApplicationContext context) {
		Http http = new Http(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
		String text = UUID.randomUUID().toString();
		String json = "{\"text\":\"" + text + "\"}";
		HttpResponse<byte[]> first = http.post("/memos").key(text).json(json).send();
		assertThat(first.statusCode()).isEqualTo(201);
		String location = first.headers().firstValue("Location").orElseThrow();
		assertThat(location).hasSize(JpaApplication.LOCATION_LENGTH);
		assertThat(first.body()).hasSize(JpaApplication.BODY_LENGTH);
		List<CompletableFuture<HttpResponse<byte[]>>> duplicates = IntStream.range(0, DUPLICATES)
			.mapToObj((i) -> http.post("/memos").key(text).json(json).sendAsync())
			.toList();
		for (CompletableFuture<HttpResponse<byte[]>> duplicate : duplicates) {
			HttpResponse<byte[]> replay = duplicate.join();
			assertThat(replay.statusCode()).isEqualTo(201);
			assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(replay.headers().firstValue("Location")).hasValue(location);
			assertThat(replay.body()).isEqualTo(first.body());
		}
		assertThat(context.getBean(Memos.class).countByText(text)).isOne();
	}

}
