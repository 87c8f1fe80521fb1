package io.github.idempotency.benchmarks.fingerprint;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.fingerprint.CanonicalJson;
import io.github.idempotency.fingerprint.Sha256RequestFingerprinter;

/**
 * Measures the request fingerprint of a realistic JSON body of about 1 KB and 100 KB: the full
 * fingerprint, its JSON canonicalization alone, SHA-256 of the raw bytes alone (the floor), and the
 * fingerprint of the same body sent as {@code text/plain}, which is not canonicalized.
 *
 * <p>Each benchmark reports its throughput in operations per second and, as the secondary result
 * {@code :megabytes}, the body bytes it digested per second in MB (10<sup>6</sup> bytes). Run it with
 * the command in this module's README.md.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class FingerprintBenchmark {

	/**
	 * Approximate size of the body.
	 */
	@Param({ "1KB", "100KB" })
	public String size;

	private final Sha256RequestFingerprinter fingerprinter = new Sha256RequestFingerprinter();

	private byte[] body;

	private FingerprintRequest json;

	private FingerprintRequest text;

	@Setup(Level.Trial)
	public void createBody() {
		this.body = PaymentJson.ofSize(parseSize(this.size));
		this.json = new FingerprintRequest("create-payment", "/payments", "expand=customer&dry-run=false",
				"application/json; charset=utf-8", this.body);
		this.text = new FingerprintRequest("create-payment", "/payments", "expand=customer&dry-run=false",
				"text/plain; charset=utf-8", this.body);
		byte[] canonical = CanonicalJson.canonicalize(this.body);
		if (canonical == null) {
			throw new IllegalStateException("The generated body is not one JSON document");
		}
		if (this.fingerprinter.fingerprint(this.json).equals(this.fingerprinter.fingerprint(this.text))) {
			throw new IllegalStateException("The JSON body was not canonicalized");
		}
		System.out.printf("%n%s body: %d bytes, canonical form %d bytes%n", this.size, this.body.length,
				canonical.length);
	}

	@Benchmark
	public String fingerprintJson(Throughput throughput) {
		throughput.digested(this.body.length);
		return this.fingerprinter.fingerprint(this.json);
	}

	@Benchmark
	public byte[] canonicalizeOnly(Throughput throughput) {
		throughput.digested(this.body.length);
		return CanonicalJson.canonicalize(this.body);
	}

	@Benchmark
	public byte[] sha256Only(Throughput throughput) throws NoSuchAlgorithmException {
		throughput.digested(this.body.length);
		// A new digest per call, as the fingerprinter does.
		return MessageDigest.getInstance("SHA-256").digest(this.body);
	}

	@Benchmark
	public String fingerprintTextPlain(Throughput throughput) {
		throughput.digested(this.body.length);
		return this.fingerprinter.fingerprint(this.text);
	}

	private static int parseSize(String size) {
		if (!size.endsWith("KB")) {
			throw new IllegalArgumentException("A size is a number of KB, such as 1KB, not '" + size + "'");
		}
		return Integer.parseInt(size.substring(0, size.length() - 2)) * 1024;
	}

	/**
	 * Per-thread counter of the body bytes digested, reported by JMH as a rate next to ops/s.
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.OPERATIONS)
	public static class Throughput {

		/**
		 * Megabytes (10<sup>6</sup> bytes) of body digested; JMH divides it by the iteration time.
		 */
		public double megabytes;

		@Setup(Level.Iteration)
		public void reset() {
			this.megabytes = 0;
		}

		void digested(int bytes) {
			this.megabytes += bytes / 1_000_000d;
		}

	}

}
