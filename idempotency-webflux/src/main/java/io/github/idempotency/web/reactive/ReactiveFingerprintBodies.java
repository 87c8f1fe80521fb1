package io.github.idempotency.web.reactive;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;

/**
 * The body of a reactive request as its fingerprint sees it: the bytes as sent; a form's
 * parameters in name order; a multipart body with its boundary, which a client draws anew for
 * each attempt, replaced by a fixed one, so that a retry of the same parts is the same request.
 */
final class ReactiveFingerprintBodies {

	private static final byte[] FIXED_BOUNDARY = "idempotency-boundary".getBytes(StandardCharsets.US_ASCII);

	private ReactiveFingerprintBodies() {
	}

	/**
	 * Return the content type the body counts under: that of a form or multipart body without its
	 * parameters (its boundary does not count), any other as sent.
	 * @param contentType the request's content type, or {@code null}
	 * @return the content type, or {@code null}
	 */
	static @Nullable String contentType(@Nullable MediaType contentType) {
		if (contentType == null) {
			return null;
		}
		return (isForm(contentType) || isMultipart(contentType))
				? contentType.getType() + "/" + contentType.getSubtype() : contentType.toString();
	}

	static byte[] of(@Nullable MediaType contentType, byte[] body) {
		if (contentType == null) {
			return body;
		}
		if (isForm(contentType)) {
			return parameters(body);
		}
		String boundary = isMultipart(contentType) ? contentType.getParameter("boundary") : null;
		return (boundary != null) ? replace(body, ("--" + unquote(boundary)).getBytes(StandardCharsets.US_ASCII))
				: body;
	}

	private static boolean isForm(MediaType type) {
		return MediaType.APPLICATION_FORM_URLENCODED.includes(type);
	}

	private static boolean isMultipart(MediaType type) {
		return type.getType().toLowerCase(Locale.ROOT).equals("multipart");
	}

	private static String unquote(String boundary) {
		return (boundary.length() > 1 && boundary.startsWith("\"") && boundary.endsWith("\""))
				? boundary.substring(1, boundary.length() - 1) : boundary;
	}

	private static byte[] parameters(byte[] body) {
		Map<String, List<String>> parameters = new TreeMap<>();
		for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
			if (pair.isEmpty()) {
				continue;
			}
			int equals = pair.indexOf('=');
			String name = URLDecoder.decode((equals < 0) ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
			String value = (equals < 0) ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
			parameters.computeIfAbsent(name, (key) -> new ArrayList<>()).add(value);
		}
		StringBuilder canonical = new StringBuilder();
		parameters.forEach((name, values) -> {
			for (String value : values) {
				canonical.append(URLEncoder.encode(name, StandardCharsets.UTF_8))
					.append('=')
					.append(URLEncoder.encode(value, StandardCharsets.UTF_8))
					.append('&');
			}
		});
		return canonical.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] replace(byte[] body, byte[] delimiter) {
		java.io.ByteArrayOutputStream replaced = new java.io.ByteArrayOutputStream(body.length);
		int from = 0;
		for (int at = indexOf(body, delimiter, 0); at >= 0; at = indexOf(body, delimiter, from)) {
			replaced.write(body, from, at - from);
			replaced.writeBytes("--".getBytes(StandardCharsets.US_ASCII));
			replaced.writeBytes(FIXED_BOUNDARY);
			from = at + delimiter.length;
		}
		replaced.write(body, from, body.length - from);
		return replaced.toByteArray();
	}

	private static int indexOf(byte[] body, byte[] part, int from) {
		outer: for (int i = from; i <= body.length - part.length; i++) {
			for (int j = 0; j < part.length; j++) {
				if (body[i + j] != part[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

}
