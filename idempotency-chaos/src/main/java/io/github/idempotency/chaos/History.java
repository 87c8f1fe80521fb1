package io.github.idempotency.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The history of a soak: one JSON object per line, {@code "type"} {@code attempt}, {@code fault}
 * or {@code run}, appended as events happen and read back whole by the checker.
 *
 * @param run the frame of the soak, or {@code null} if the soak did not finish
 * @param attempts every request and its answer, in the order they were recorded
 * @param faults every fault the nemesis injected
 */
record History(@Nullable Run run, List<Attempt> attempts, List<Fault> faults) {

	static final JsonMapper JSON = JsonMapper.builder()
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.build();

	/**
	 * Read a history file.
	 * @param file the file
	 * @return the history
	 */
	public static History read(Path file) {
		Run run = null;
		List<Attempt> attempts = new ArrayList<>();
		List<Fault> faults = new ArrayList<>();
		try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.isBlank()) {
					continue;
				}
				JsonNode node = JSON.readTree(line);
				switch (node.get("type").asString()) {
					case "attempt" -> attempts.add(JSON.treeToValue(node, Attempt.class));
					case "fault" -> faults.add(new Fault(FaultKind.fromLabel(node.get("kind").asString()),
							node.get("target").asInt(), node.get("start").asLong(), node.get("end").asLong(),
							node.get("detail").asString()));
					case "run" -> run = JSON.treeToValue(node, Run.class);
					default -> throw new IllegalStateException("Unknown history line: " + line);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new History(run, attempts, faults);
	}

	/**
	 * Appends events to a history file, one whole line per write, from any thread.
	 */
	static final class Writer implements AutoCloseable {

		private final OutputStream out;

		Writer(Path file) throws IOException {
			this.out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}

		void attempt(Attempt attempt) {
			write(JSON.valueToTree(attempt), "attempt");
		}

		void fault(Fault fault) {
			ObjectNode node = JSON.createObjectNode();
			node.put("kind", fault.kind().label());
			node.put("target", fault.target());
			node.put("start", fault.start());
			node.put("end", fault.end());
			node.put("detail", fault.detail());
			write(node, "fault");
		}

		void run(Run run) {
			write(JSON.valueToTree(run), "run");
		}

		private synchronized void write(ObjectNode node, String type) {
			ObjectNode line = JSON.createObjectNode();
			line.put("type", type);
			line.setAll(node);
			try {
				this.out.write((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
				this.out.flush();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public void close() throws IOException {
			this.out.close();
		}

	}

}
