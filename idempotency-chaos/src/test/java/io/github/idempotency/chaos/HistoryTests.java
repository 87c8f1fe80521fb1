package io.github.idempotency.chaos;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history file as the soak writes it and the checker reads it.
 */
class HistoryTests {

	@Test
	void whatTheSoakAppendsIsReadBackAsIs(@TempDir Path directory) throws Exception {
		Path file = directory.resolve("history.jsonl");
		Attempt answered = new Attempt(3, "k1", 2, 1, "run", 100, 150, 201, true, null, "b0d1", null, "r", 7L, "ch_7");
		Attempt failed = new Attempt(4, "k2", 1, 3, "drain", 200, 260, null, false, null, null,
				"ConnectException: refused", "r2", null, null);
		Fault fault = new Fault(FaultKind.PARTITION_DROP, 2, 120, 180, "60 ms");
		Run run = new Run("atomic", 7, 16, 50, 100, 300, 400);
		try (History.Writer writer = new History.Writer(file)) {
			writer.attempt(answered);
			writer.fault(fault);
			writer.attempt(failed);
			writer.run(run);
		}
		History history = History.read(file);
		assertThat(history.attempts()).containsExactly(answered, failed);
		assertThat(history.faults()).containsExactly(fault);
		assertThat(history.run()).isEqualTo(run);
	}

}
