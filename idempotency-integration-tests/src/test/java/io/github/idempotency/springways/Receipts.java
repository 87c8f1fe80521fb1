package io.github.idempotency.springways;

import org.springframework.stereotype.Service;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.springways.SpringWaysApplication.Effects;

/**
 * Idempotent bean methods whose declared return type is not the type they return.
 */
@Service
public class Receipts {

	private final Effects effects;

	Receipts(Effects effects) {
		this.effects = effects;
	}

	@Idempotent(operation = "receipts", key = "'receipt:' + #id")
	public Receipt issue(String id, long amount) {
		this.effects.record("receipts", id);
		return new CardReceipt("R-" + id, amount);
	}

	@Idempotent(operation = "opaque-receipts", key = "'opaque:' + #id")
	public Opaque issueOpaque(String id) {
		this.effects.record("opaque-receipts", id);
		return Opaque.of(id);
	}

	/**
	 * What callers see of a receipt.
	 */
	public interface Receipt {

		String number();

	}

	/**
	 * The receipt actually returned.
	 *
	 * @param number the receipt number
	 * @param amount the amount
	 */
	public record CardReceipt(String number, long amount) implements Receipt {
	}

	/**
	 * A value that JSON can write and cannot read back: no creator Jackson can use.
	 */
	public static final class Opaque {

		private final String id;

		private Opaque(String id, int version) {
			this.id = id + "#" + version;
		}

		static Opaque of(String id) {
			return new Opaque(id, 1);
		}

		public String getIdentifier() {
			return this.id;
		}

	}

}
