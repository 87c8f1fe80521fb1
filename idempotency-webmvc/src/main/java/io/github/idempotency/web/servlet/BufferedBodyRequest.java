package io.github.idempotency.web.servlet;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import io.github.idempotency.RequestBodyTooLargeException;

/**
 * A request whose body can be read into memory once, for fingerprinting, and then read again by
 * the handler; until then it passes everything through.
 */
final class BufferedBodyRequest extends HttpServletRequestWrapper {

	private static final byte[] EMPTY = new byte[0];

	private byte[] body;

	private ServletInputStream bodyStream;

	private BufferedReader bodyReader;

	BufferedBodyRequest(HttpServletRequest request) {
		super(request);
	}

	/**
	 * Read the whole body into memory, refusing one larger than the limit before reading it where
	 * the request declares its length.
	 * @param maxBytes the largest body accepted
	 * @throws RequestBodyTooLargeException if the body is larger
	 * @throws IOException if reading fails
	 */
	void buffer(long maxBytes) throws IOException {
		if (this.body != null) {
			return;
		}
		if (getContentLengthLong() > maxBytes) {
			throw tooLarge(maxBytes);
		}
		InputStream in = super.getInputStream();
		byte[] bytes = in.readNBytes((int) Math.min(maxBytes + 1, Integer.MAX_VALUE - 8));
		if (bytes.length > maxBytes) {
			throw tooLarge(maxBytes);
		}
		this.body = bytes;
	}

	/**
	 * Return the buffered body.
	 * @return the body, empty if it was not buffered
	 */
	byte[] body() {
		return (this.body != null) ? this.body : EMPTY;
	}

	@Override
	public ServletInputStream getInputStream() throws IOException {
		if (this.body == null) {
			return super.getInputStream();
		}
		if (this.bodyStream == null) {
			this.bodyStream = new BufferedInputStream(this.body);
		}
		return this.bodyStream;
	}

	@Override
	public BufferedReader getReader() throws IOException {
		if (this.body == null) {
			return super.getReader();
		}
		if (this.bodyReader == null) {
			String encoding = getCharacterEncoding();
			Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.ISO_8859_1;
			this.bodyReader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
		}
		return this.bodyReader;
	}

	private static RequestBodyTooLargeException tooLarge(long maxBytes) {
		return new RequestBodyTooLargeException(
				"The request body is larger than the " + maxBytes + " bytes an idempotent request may have.");
	}

	private static final class BufferedInputStream extends ServletInputStream {

		private final ByteArrayInputStream delegate;

		BufferedInputStream(byte[] body) {
			this.delegate = new ByteArrayInputStream(body);
		}

		@Override
		public int read() {
			return this.delegate.read();
		}

		@Override
		public int read(byte[] b, int off, int len) {
			return this.delegate.read(b, off, len);
		}

		@Override
		public int available() {
			return this.delegate.available();
		}

		@Override
		public boolean isFinished() {
			return this.delegate.available() == 0;
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setReadListener(ReadListener listener) {
			throw new UnsupportedOperationException("The body of an idempotent request is already buffered");
		}

	}

}
