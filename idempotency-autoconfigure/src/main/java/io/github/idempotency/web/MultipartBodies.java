package io.github.idempotency.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;

import io.github.idempotency.core.KeyHashes;

/**
 * The canonical form of a multipart body for the fingerprint: every part, file content included,
 * as its name, file name, content type and the SHA-256 of its content, in name order (parts of
 * one name in the order sent), so that another file under the same key is another request.
 */
final class MultipartBodies {

	private MultipartBodies() {
	}

	static boolean isMultipart(HttpServletRequest request) {
		String contentType = request.getContentType();
		return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("multipart/");
	}

	static byte[] canonical(HttpServletRequest request) throws IOException, ServletException {
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

}
