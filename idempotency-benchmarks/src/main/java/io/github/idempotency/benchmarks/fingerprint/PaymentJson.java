package io.github.idempotency.benchmarks.fingerprint;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Generates the same realistic JSON payment body of a given size on every run: nested objects,
 * arrays of line items, strings in several scripts with escapes, decimals and members out of order.
 */
final class PaymentJson {

	private static final String[] WORDS = { "Café", "naïve", "Größe", "Straße", "Zoë", "Ångström", "東京",
			"支店", "Привет", "заказ", "مرحبا", "αβγ", "ñandú", "łódź", "😀", "🚀", "coffee", "beans", "grinder",
			"filter", "paper", "mug", "kettle", "scale", "\\\"quoted\\\"", "line\\nbreak", "caf\\u00e9",
			"tab\\tstop", "€", "£", "¥" };

	private static final String[] CURRENCIES = { "EUR", "USD", "CHF", "JPY", "GBP" };

	private static final String[] COUNTRIES = { "DE", "CH", "JP", "FR", "PL", "EG", "GR" };

	private PaymentJson() {
	}

	/**
	 * Return a JSON document of at least {@code size} bytes in UTF-8, compact, as a client sends it.
	 * @param size the smallest size in bytes
	 * @return the document
	 */
	static byte[] ofSize(int size) {
		SplittableRandom random = new SplittableRandom(20261121L);
		StringBuilder json = new StringBuilder(size + 1024);
		json.append("{\"id\":\"pay_").append(Long.toHexString(random.nextLong())).append('"');
		json.append(",\"amount\":{\"value\":").append(decimal(random, 100_000, 2)).append(",\"currency\":\"")
			.append(pick(random, CURRENCIES)).append("\"}");
		json.append(",\"customer\":{\"name\":\"").append(words(random, 2)).append("\",\"email\":\"c")
			.append(random.nextInt(1_000_000)).append("@example.com\",\"address\":{\"street\":\"")
			.append(words(random, 2)).append(' ').append(1 + random.nextInt(200)).append("\",\"city\":\"")
			.append(words(random, 1)).append("\",\"country\":\"").append(pick(random, COUNTRIES))
			.append("\",\"geo\":{\"lon\":").append(decimal(random, 180, 6)).append(",\"lat\":")
			.append(decimal(random, 90, 6)).append("}},\"locale\":\"de-CH\",\"vip\":").append(random.nextBoolean())
			.append('}');
		json.append(",\"metadata\":{\"note\":\"").append(words(random, 8)).append("\",\"channel\":\"web\"")
			.append(",\"attempt\":1,\"referrer\":null}");
		json.append(",\"items\":[");
		String trailer = "],\"createdAt\":\"2026-11-21T08:29:37.123Z\",\"capture\":true}";
		for (int item = 0; utf8Length(json) + trailer.length() < size; item++) {
			if (item > 0) {
				json.append(',');
			}
			appendItem(json, random, item);
		}
		json.append(trailer);
		return json.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static void appendItem(StringBuilder json, SplittableRandom random, int item) {
		json.append("{\"sku\":\"SKU-").append(String.format(Locale.ROOT, "%06d", random.nextInt(1_000_000)))
			.append("\",\"quantity\":").append(1 + random.nextInt(12)).append(",\"unitPrice\":")
			.append(decimal(random, 500, 2)).append(",\"taxRate\":0.0").append(1 + random.nextInt(9))
			.append(",\"description\":\"").append(words(random, 4 + random.nextInt(6))).append('"')
			.append(",\"tags\":[");
		int tags = 1 + random.nextInt(4);
		for (int tag = 0; tag < tags; tag++) {
			json.append((tag > 0) ? ",\"" : "\"").append(words(random, 1)).append('"');
		}
		json.append("],\"attributes\":{\"size\":\"").append("SML".charAt(random.nextInt(3)))
			.append("\",\"colour\":\"").append(words(random, 1)).append("\",\"weightKg\":")
			.append(decimal(random, 20, 3)).append("},\"discount\":")
			.append((item % 3 == 0) ? "null" : decimal(random, 50, 2)).append(",\"giftWrap\":")
			.append(random.nextBoolean()).append('}');
	}

	private static String decimal(SplittableRandom random, int bound, int scale) {
		long unscaled = random.nextLong((long) bound * (long) Math.pow(10, scale));
		String digits = String.format(Locale.ROOT, "%0" + (scale + 1) + "d", unscaled);
		return digits.substring(0, digits.length() - scale) + "." + digits.substring(digits.length() - scale);
	}

	private static String words(SplittableRandom random, int count) {
		StringBuilder words = new StringBuilder();
		for (int i = 0; i < count; i++) {
			if (i > 0) {
				words.append(' ');
			}
			words.append(pick(random, WORDS));
		}
		return words.toString();
	}

	private static String pick(SplittableRandom random, String[] values) {
		return values[random.nextInt(values.length)];
	}

	private static int utf8Length(CharSequence text) {
		return text.toString().getBytes(StandardCharsets.UTF_8).length;
	}

}
