package io.github.idempotency.testsupport;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Sends one command to a Redis server over RESP and reads its reply, so that test support needs no
 * Redis client library.
 */
final class RespConnection {

	private RespConnection() {
	}

	static @Nullable Object command(String host, int port, String... arguments) {
		return commands(host, port, new String[][] { arguments });
	}

	/**
	 * Send commands one after the other on one connection.
	 * @return the reply of the last one
	 */
	static @Nullable Object commands(String host, int port, String[]... commands) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 2000);
			socket.setSoTimeout(10000);
			OutputStream out = socket.getOutputStream();
			BufferedInputStream in = new BufferedInputStream(socket.getInputStream());
			Object reply = null;
			for (String[] arguments : commands) {
				ByteArrayOutputStream request = new ByteArrayOutputStream();
				request.writeBytes(("*" + arguments.length + "\r\n").getBytes(StandardCharsets.UTF_8));
				for (String argument : arguments) {
					byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
					request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
					request.writeBytes(bytes);
					request.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
				}
				out.write(request.toByteArray());
				out.flush();
				reply = read(in);
			}
			return reply;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Redis on " + host + ":" + port + " did not answer", ex);
		}
	}

	private static @Nullable Object read(InputStream in) throws IOException {
		int type = in.read();
		String line = line(in);
		return switch (type) {
			case '+' -> line;
			case '-' -> throw new IllegalStateException("Redis answered an error: " + line);
			case ':' -> Long.parseLong(line);
			case '$' -> bulk(in, Integer.parseInt(line));
			case '*' -> {
				int count = Integer.parseInt(line);
				if (count < 0) {
					yield null;
				}
				List<@Nullable Object> items = new ArrayList<>(count);
				for (int i = 0; i < count; i++) {
					items.add(read(in));
				}
				yield items;
			}
			default -> throw new IllegalStateException("Unexpected Redis reply type " + (char) type);
		};
	}

	private static @Nullable String bulk(InputStream in, int length) throws IOException {
		if (length < 0) {
			return null;
		}
		byte[] bytes = in.readNBytes(length);
		line(in);
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) != '\r') {
			if (b < 0) {
				throw new IOException("Redis closed the connection");
			}
			line.write(b);
		}
		in.read();
		return line.toString(StandardCharsets.UTF_8);
	}

}
