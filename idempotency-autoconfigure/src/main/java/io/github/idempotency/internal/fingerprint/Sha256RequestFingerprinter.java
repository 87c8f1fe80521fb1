package io.github.idempotency.internal.fingerprint;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Locale;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.RequestFingerprinter;
import io.github.idempotency.internal.engine.KeyHashes;
import io.github.idempotency.internal.engine.MalformedRequestBodyException;

/**
 * SHA-256 over the operation, the path, the query parameters sorted by name (the values of a
 * repeated parameter in the order sent), the media type of
 * the body (without parameters) and the body, with a JSON body in its
 * {@link CanonicalJson canonical form} so that reordered members or whitespace do not count as a
 * different request. The same bytes under another media type are another request: a server may
 * read them differently.
 */
public class Sha256RequestFingerprinter implements RequestFingerprinter {

	@Override
	public String fingerprint(FingerprintRequest request) {
		MessageDigest digest = KeyHashes.sha256();
		update(digest, request.operation());
		update(digest, request.path());
		update(digest, sortedQuery(request.query()));
		update(digest, mediaType(request.contentType()));
		digest.update(body(request));
		return HexFormat.of().formatHex(digest.digest());
	}

	private static byte[] body(FingerprintRequest request) {
		if (request.body().length == 0 || !isJson(request.contentType())) {
			return request.body();
		}
		try {
			byte[] canonical = CanonicalJson.canonicalize(request.body());
			return (canonical != null) ? canonical : request.body();
		}
		catch (CanonicalJson.DuplicateMemberException ex) {
			throw new MalformedRequestBodyException("The JSON body is ambiguous: " + ex.getMessage() + ".");
		}
	}

	static boolean isJson(String contentType) {
		String type = mediaType(contentType);
		return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
	}

	private static String mediaType(String contentType) {
		if (contentType == null) {
			return "";
		}
		int semicolon = contentType.indexOf(';');
		return ((semicolon >= 0) ? contentType.substring(0, semicolon) : contentType).trim().toLowerCase(Locale.ROOT);
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

}
