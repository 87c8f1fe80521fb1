package io.github.idempotency.sample.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Sends an HTTP/1.1 request over a plain socket, for header bytes that {@code java.net.http}
 * refuses to send.
 */
public final class RawHttp {

	private RawHttp() {
	}

	/**
	 * Send a JSON {@code POST} with one extra header line given as raw bytes.
	 * @param port the server port
	 * @param path the request path
	 * @param rawHeaderLine the header line, without its CRLF, sent byte for byte
	 * @param json the JSON body
	 * @return the response
	 */
	public static Response post(int port, String path, byte[] rawHeaderLine, String json) {
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		String head = "POST " + path + " HTTP/1.1\r\nHost: localhost:" + port
				+ "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n";
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("localhost", port), 5000);
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write(head.getBytes(StandardCharsets.US_ASCII));
			out.write(rawHeaderLine);
			out.write("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			out.write(body);
			out.flush();
			return Response.parse(readAll(socket.getInputStream()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static byte[] readAll(InputStream in) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		in.transferTo(bytes);
		return bytes.toByteArray();
	}

	/**
	 * A response as read from the socket.
	 *
	 * @param status the status code
	 * @param head the status line and headers
	 * @param body the body; chunked bodies are left encoded
	 */
	public record Response(int status, String head, String body) {

		static Response parse(byte[] raw) {
			String text = new String(raw, StandardCharsets.ISO_8859_1);
			int end = text.indexOf("\r\n\r\n");
			String head = (end >= 0) ? text.substring(0, end) : text;
			String body = (end >= 0) ? new String(raw, end + 4, raw.length - end - 4, StandardCharsets.UTF_8) : "";
			return new Response(Integer.parseInt(head.substring(9, 12)), head, body);
		}

		/**
		 * Return the value of a header, or {@code null}.
		 * @param name the header name
		 * @return the first value
		 */
		public String header(String name) {
			String prefix = name.toLowerCase(Locale.ROOT) + ":";
			return this.head.lines()
				.filter((line) -> line.toLowerCase(Locale.ROOT).startsWith(prefix))
				.map((line) -> line.substring(prefix.length()).trim())
				.findFirst()
				.orElse(null);
		}

	}

}
