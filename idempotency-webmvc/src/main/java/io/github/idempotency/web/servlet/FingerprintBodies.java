package io.github.idempotency.web.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.KeyHashes;

/**
 * The body of a request as its fingerprint sees it: the buffered bytes; the parameters of a form,
 * in name order; every part of a multipart body, file content included, as its name, file name,
 * content type and the SHA-256 of its content, in name order (parts of one name in the order
 * sent), so that another file under the same key is another request.
 */
final class FingerprintBodies {

	private FingerprintBodies() {
	}

	/**
	 * Return whether the container parses the body into parameters or parts, which it must then
	 * read itself: such a body is not buffered.
	 * @param request the request
	 * @return whether the body is a form or multipart
	 */
	static boolean isParsedByTheContainer(HttpServletRequest request) {
		String type = mediaType(request);
		return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/");
	}

	static byte[] of(BufferedBodyRequest request) throws IOException, ServletException {
		if (!isParsedByTheContainer(request)) {
			return request.body();
		}
		return mediaType(request).startsWith("multipart/") ? parts(request) : parameters(request);
	}

	/**
	 * Return the content type the body counts under: a form or multipart body counts by its
	 * decoded parameters or parts, so its charset, already applied, and its boundary do not
	 * count; any other body keeps its content type, charset included.
	 * @param request the request
	 * @return the content type, or {@code null} if the request has none
	 */
	static @Nullable String contentType(HttpServletRequest request) {
		return isParsedByTheContainer(request) ? mediaType(request).split(";", 2)[0].trim()
				: request.getContentType();
	}

	private static byte[] parameters(HttpServletRequest request) {
		Map<String, String[]> parameters = new TreeMap<>(request.getParameterMap());
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

	private static byte[] parts(HttpServletRequest request) throws IOException, ServletException {
		List<Part> parts = new ArrayList<>(request.getParts());
		parts.sort(Comparator.comparing(Part::getName));
		StringBuilder canonical = new StringBuilder();
		for (Part part : parts) {
			canonical.append(escape(part.getName()))
				.append(';')
				.append(escape(part.getSubmittedFileName()))
				.append(';')
				.append(escape(part.getContentType()))
				.append(';')
				.append(contentHash(part))
				.append('\n');
		}
		return canonical.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String contentHash(Part part) throws IOException {
		MessageDigest digest = KeyHashes.sha256();
		byte[] buffer = new byte[8192];
		try (InputStream content = part.getInputStream()) {
			for (int read = content.read(buffer); read >= 0; read = content.read(buffer)) {
				digest.update(buffer, 0, read);
			}
		}
		return HexFormat.of().formatHex(digest.digest());
	}

	private static String escape(String value) {
		return (value != null) ? value.replace("\\", "\\\\").replace(";", "\\;").replace("\n", "\\n") : "\\0";
	}

	private static String mediaType(HttpServletRequest request) {
		String contentType = request.getContentType();
		return (contentType != null) ? contentType.toLowerCase(Locale.ROOT) : "";
	}

}
