package io.github.idempotency.sample.observability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The files of this repository that the observability tests check, and the tools they run.
 */
final class Repository {

	private Repository() {
	}

	/**
	 * Return the repository's root, the first folder above the working directory that holds
	 * {@code observability/prometheus-rules.yml}.
	 * @return the root
	 */
	static Path root() {
		Path folder = Path.of("").toAbsolutePath();
		while (folder != null) {
			if (Files.isRegularFile(folder.resolve("observability/prometheus-rules.yml"))) {
				return folder;
			}
			folder = folder.getParent();
		}
		throw new IllegalStateException("No observability/prometheus-rules.yml above " + Path.of("").toAbsolutePath());
	}

	static Path observability(String file) {
		return root().resolve("observability").resolve(file);
	}

	/**
	 * Run one of the repository's {@code scripts/ensure-*.sh}, which install a tool from Debian's
	 * packages where it is missing, and return the paths it prints.
	 * @param script the script's file name
	 * @return the lines it printed on standard output
	 */
	static List<String> ensure(String script) {
		Result result = run(List.of("bash", root().resolve("scripts").resolve(script).toString()), 15);
		if (result.exitCode() != 0) {
			throw new IllegalStateException(script + " failed (" + result.exitCode() + "):\n" + result.output());
		}
		return result.standardOutput().lines().filter((line) -> !line.isBlank()).toList();
	}

	/**
	 * Run a command in the repository's root and wait for it.
	 * @param command the command and its arguments
	 * @param minutes how long it may take
	 * @return its exit code and what it printed
	 */
	static Result run(List<String> command, int minutes) {
		try {
			Path output = Files.createTempFile("command", ".out");
			Path errors = Files.createTempFile("command", ".err");
			try {
				Process process = new ProcessBuilder(command).directory(root().toFile())
					.redirectOutput(output.toFile())
					.redirectError(errors.toFile())
					.start();
				if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
					process.destroyForcibly();
					throw new IllegalStateException(command + " did not finish within " + minutes + " minutes");
				}
				return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8),
						Files.readString(errors, StandardCharsets.UTF_8));
			}
			finally {
				Files.deleteIfExists(output);
				Files.deleteIfExists(errors);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * What a command did.
	 *
	 * @param exitCode its exit code
	 * @param standardOutput what it printed on standard output
	 * @param standardError what it printed on standard error
	 */
	record Result(int exitCode, String standardOutput, String standardError) {

		String output() {
			return this.standardOutput + this.standardError;
		}

	}

}
