package io.github.idempotency.test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.1 client over a plain socket that sends header bytes exactly as given, control
 * characters and all, for tests of malformed input.
 */
public final class RawHttp {

	private RawHttp() {
	}

	/**
	 * Send a POST and read the whole response.
	 * @param port the server port
	 * @param path the request path
	 * @param headerLines extra header lines, as bytes, without line terminators
	 * @param body the JSON body
	 * @return the response
	 */
	public static Response post(int port, String path, byte[][] headerLines, byte[] body) {
		ByteArrayOutputStream request = new ByteArrayOutputStream();
		request.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n")
			.getBytes(StandardCharsets.ISO_8859_1));
		for (byte[] line : headerLines) {
			request.writeBytes(line);
			request.writeBytes(new byte[] { '\r', '\n' });
		}
		request.writeBytes(new byte[] { '\r', '\n' });
		request.writeBytes(body);
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(30_000);
			try {
				OutputStream out = socket.getOutputStream();
				out.write(request.toByteArray());
				out.flush();
			}
			catch (IOException ex) {
				// The server may refuse the request and close before reading all of it; its answer
				// is still there to read.
			}
			return Response.parse(socket.getInputStream().readAllBytes());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * A response as read from the socket.
	 *
	 * @param status the status code
	 * @param headers the headers, names in lower case
	 * @param body the body, de-chunked
	 */
	public record Response(int status, Map<String, String> headers, byte[] body) {

		static Response parse(byte[] raw) {
			String text = new String(raw, StandardCharsets.ISO_8859_1);
			int headerEnd = text.indexOf("\r\n\r\n");
			if (headerEnd < 0) {
				throw new IllegalStateException("Incomplete response: " + text);
			}
			String[] lines = text.substring(0, headerEnd).split("\r\n");
			int status = Integer.parseInt(lines[0].split(" ")[1]);
			Map<String, String> headers = new LinkedHashMap<>();
			for (int i = 1; i < lines.length; i++) {
				int colon = lines[i].indexOf(':');
				headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
						lines[i].substring(colon + 1).trim());
			}
			byte[] body = Arrays.copyOfRange(raw, headerEnd + 4, raw.length);
			if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
				body = dechunk(body);
			}
			return new Response(status, headers, body);
		}

		private static byte[] dechunk(byte[] chunked) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			int position = 0;
			while (position < chunked.length) {
				int lineEnd = indexOfCrlf(chunked, position);
				String sizeLine = new String(chunked, position, lineEnd - position, StandardCharsets.ISO_8859_1);
				int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
				if (size == 0) {
					break;
				}
				out.write(chunked, lineEnd + 2, size);
				position = lineEnd + 2 + size + 2;
			}
			return out.toByteArray();
		}

		private static int indexOfCrlf(byte[] bytes, int from) {
			for (int i = from; i < bytes.length - 1; i++) {
				if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
					return i;
				}
			}
			return bytes.length;
		}

		public String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}


	}

}
