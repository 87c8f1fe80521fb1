package io.github.idempotency.springways;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ATOMIC handlers that write through JPA, with the open-in-view entity manager Spring Boot turns
 * on by default: the entity, the claim and the stored response commit together or not at all.
 */
class JpaAtomicTests extends SpringWaysTest {

	@Autowired
	NoteRepository notes;

	@Test
	void entityAndStoredResponseCommitTogether() {
		String value = unique();
		HttpResponse<byte[]> first = http().post("/notes").key(value).json(json(value)).send();
		HttpResponse<byte[]> replay = http().post("/notes").key(value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(this.notes.countByText(value)).isOne();
		assertThat(status(value)).isEqualTo("COMPLETED");
	}

	@Test
	void finalErrorRollsTheEntityBackAndIsReplayed() {
		String value = unique();
		HttpResponse<byte[]> first = http().post("/notes?reject=true").key(value).json(json(value)).send();
		HttpResponse<byte[]> replay = http().post("/notes?reject=true").key(value).json(json(value)).send();
		assertThat(first.statusCode()).isEqualTo(422);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(this.notes.countByText(value)).isZero();
	}

}
