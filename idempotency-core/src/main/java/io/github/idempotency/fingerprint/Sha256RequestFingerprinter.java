package io.github.idempotency.fingerprint;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.RequestFingerprinter;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.MalformedRequestBodyException;

/**
 * SHA-256 over the operation, the path, the query parameters sorted by name (the values of a
 * repeated parameter in the order sent), the media type of the body and the body, with a JSON
 * body in its {@link CanonicalJson canonical form} so that reordered members or whitespace do not
 * count as a different request. The same bytes under another media type are another request: a
 * server may read them differently. So is a body under another charset: JSON is read in its
 * declared charset (UTF-8 when it declares none) before it is canonicalized, so the same values
 * are the same request whatever their encoding; another body counts its charset's canonical name
 * with its media type.
 */
public class Sha256RequestFingerprinter implements RequestFingerprinter {

	@Override
	public String fingerprint(FingerprintRequest request) {
		MessageDigest digest = KeyHashes.sha256();
		update(digest, request.operation());
		update(digest, request.path());
		update(digest, sortedQuery(request.query()));
		Body body = body(request);
		update(digest, body.type());
		digest.update(body.bytes());
		return HexFormat.of().formatHex(digest.digest());
	}

	/**
	 * Return the body as it counts and the media type it counts under. An empty body has nothing
	 * to decode, so its charset does not count; nor does the charset of JSON in UTF-8, its own
	 * encoding, which keeps the fingerprints of such requests as they were before charsets
	 * counted.
	 */
	private static Body body(FingerprintRequest request) {
		String type = mediaType(request.contentType());
		byte[] bytes = request.body();
		if (bytes.length == 0) {
			return new Body(type, bytes);
		}
		String charset = charsetParameter(request.contentType());
		if (!isJson(type)) {
			return new Body((charset != null) ? withCharset(type, charset) : type, bytes);
		}
		if (charset == null || isUtf8(charset)) {
			// UTF-8, or UTF-16 or UTF-32 told from the bytes as JSON parsers do.
			return new Body(type, canonical(bytes));
		}
		String text = decode(bytes, charset);
		if (text == null) {
			// Neither read nor canonicalized: these bytes under this charset are a request of their own.
			return new Body(withCharset(type, charset), bytes);
		}
		return new Body(type, canonical(text.getBytes(StandardCharsets.UTF_8)));
	}

	private static byte[] canonical(byte[] json) {
		try {
			byte[] canonical = CanonicalJson.canonicalize(json);
			return (canonical != null) ? canonical : json;
		}
		catch (CanonicalJson.DuplicateMemberException ex) {
			throw new MalformedRequestBodyException("The JSON body is ambiguous: " + ex.getMessage() + ".");
		}
	}

	private static boolean isJson(String type) {
		return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
	}

	private static String mediaType(@Nullable String contentType) {
		if (contentType == null) {
			return "";
		}
		int semicolon = contentType.indexOf(';');
		return ((semicolon >= 0) ? contentType.substring(0, semicolon) : contentType).trim().toLowerCase(Locale.ROOT);
	}

	private static @Nullable String charsetParameter(@Nullable String contentType) {
		if (contentType == null) {
			return null;
		}
		String[] parts = contentType.split(";");
		for (int i = 1; i < parts.length; i++) {
			int equals = parts[i].indexOf('=');
			if (equals > 0 && parts[i].substring(0, equals).trim().equalsIgnoreCase("charset")) {
				String value = parts[i].substring(equals + 1).trim();
				if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
					value = value.substring(1, value.length() - 1).trim();
				}
				return value.isEmpty() ? null : value;
			}
		}
		return null;
	}

	private static @Nullable Charset charset(String name) {
		try {
			return Charset.forName(name);
		}
		catch (IllegalArgumentException ex) {
			// Illegal or unsupported: the name counts as it was sent.
			return null;
		}
	}

	private static boolean isUtf8(String name) {
		return StandardCharsets.UTF_8.equals(charset(name));
	}

	/**
	 * Return a media type with its charset, under the charset's canonical name, so that aliases
	 * such as {@code utf8} and {@code UTF-8} are one charset.
	 */
	private static String withCharset(String type, String name) {
		Charset charset = charset(name);
		return type + ";charset=" + ((charset != null) ? charset.name() : name).toLowerCase(Locale.ROOT);
	}

	/**
	 * Decode bytes strictly: bytes that are not text in the charset are not replaced, so that two
	 * bodies never decode to one text by losing what tells them apart.
	 */
	private static @Nullable String decode(byte[] bytes, String name) {
		Charset charset = charset(name);
		if (charset == null) {
			return null;
		}
		try {
			return charset.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException | UnsupportedOperationException ex) {
			return null;
		}
	}

	/**
	 * The query's parameters sorted by name, the values of a repeated name in the order sent: a
	 * handler that reads them as a list reads them in that order. Names are compared with their
	 * {@code =} (a parameter without a value as if it had an empty one), which orders distinct
	 * names as whole pairs were ordered before repeated names kept their order.
	 */
	private static String sortedQuery(String query) {
		if (query == null || query.isEmpty()) {
			return "";
		}
		String[] pairs = query.split("&");
		// Arrays.sort of objects is stable: equal names keep their order.
		Arrays.sort(pairs, Comparator.comparing(Sha256RequestFingerprinter::nameOf));
		return String.join("&", pairs);
	}

	private static String nameOf(String pair) {
		int equals = pair.indexOf('=');
		return (equals >= 0) ? pair.substring(0, equals + 1) : pair + "=";
	}

	private static void update(MessageDigest digest, String value) {
		digest.update(value.getBytes(StandardCharsets.UTF_8));
		digest.update((byte) 0);
	}

	/**
	 * A body as its fingerprint counts it, with the media type it counts under.
	 */
	private record Body(String type, byte[] bytes) {

	}

}
