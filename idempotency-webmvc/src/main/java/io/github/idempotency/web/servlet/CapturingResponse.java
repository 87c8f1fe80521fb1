package io.github.idempotency.web.servlet;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.util.FastByteArrayOutputStream;

/**
 * A response that, once capturing, keeps its body in memory instead of sending it, so that it can
 * be stored before the client sees it; until then it passes everything through.
 */
final class CapturingResponse extends HttpServletResponseWrapper {

	private FastByteArrayOutputStream buffer;

	private ServletOutputStream stream;

	private PrintWriter writer;

	private boolean errorSent;

	CapturingResponse(HttpServletResponse response) {
		super(response);
	}

	void startCapture() {
		this.buffer = new FastByteArrayOutputStream(1024);
	}

	boolean isCapturing() {
		return this.buffer != null;
	}

	/**
	 * Return whether the handler ended with {@code sendError}, which leaves the body to the
	 * container and so out of the captured response.
	 * @return whether an error was sent while capturing
	 */
	boolean isErrorSent() {
		return this.errorSent;
	}

	/**
	 * Return the body captured so far, without copying it, so that the bytes stored for replay
	 * are the very bytes sent; nothing writes to the buffer once the handler is done.
	 * @return the body bytes
	 */
	byte[] capturedBody() {
		if (this.writer != null) {
			this.writer.flush();
		}
		return this.buffer.toByteArrayUnsafe();
	}

	/**
	 * Stop capturing and send what was captured.
	 * @throws IOException if sending fails
	 */
	void sendCaptured() throws IOException {
		if (!isCapturing()) {
			return;
		}
		byte[] body = capturedBody();
		stopCapture();
		if (!super.isCommitted()) {
			super.setContentLength(body.length);
		}
		if (body.length > 0) {
			super.getOutputStream().write(body);
		}
	}

	/**
	 * Stop capturing and forget the captured response, headers included, so that an error page
	 * can take its place; a response the handler chain already committed is left as it is.
	 */
	void discard() {
		if (!isCapturing()) {
			return;
		}
		stopCapture();
		if (!super.isCommitted()) {
			try {
				super.reset();
			}
			catch (IllegalStateException ex) {
				// Committed meanwhile: the container ends it.
			}
		}
	}

	/**
	 * Stop capturing, forget the captured body and send the given response instead, straight to
	 * the client, past whatever the handler chain wrapped around this response.
	 * @param status the status
	 * @param headers the headers to set, Content-Type included
	 * @param body the body
	 * @throws IOException if sending fails
	 */
	void sendInstead(int status, Map<String, List<String>> headers, byte[] body) throws IOException {
		stopCapture();
		HttpServletResponse raw = (HttpServletResponse) getResponse();
		if (raw.isCommitted()) {
			throw new IllegalStateException("The response was committed before it was captured");
		}
		raw.resetBuffer();
		raw.setStatus(status);
		for (Map.Entry<String, List<String>> header : headers.entrySet()) {
			if ("Content-Type".equalsIgnoreCase(header.getKey())) {
				raw.setContentType(header.getValue().get(0));
				continue;
			}
			boolean first = true;
			for (String value : header.getValue()) {
				if (first) {
					raw.setHeader(header.getKey(), value);
					first = false;
				}
				else {
					raw.addHeader(header.getKey(), value);
				}
			}
		}
		raw.setContentLength(body.length);
		raw.getOutputStream().write(body);
		raw.flushBuffer();
	}

	private void stopCapture() {
		this.buffer = null;
		this.stream = null;
		this.writer = null;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (!isCapturing()) {
			return super.getOutputStream();
		}
		if (this.stream == null) {
			this.stream = new CaptureStream(this.buffer);
		}
		return this.stream;
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		if (!isCapturing()) {
			return super.getWriter();
		}
		if (this.writer == null) {
			this.writer = new PrintWriter(
					new OutputStreamWriter(getOutputStream(), Charset.forName(getCharacterEncoding())));
		}
		return this.writer;
	}

	@Override
	public void flushBuffer() throws IOException {
		if (!isCapturing()) {
			super.flushBuffer();
		}
		else if (this.writer != null) {
			this.writer.flush();
		}
	}

	@Override
	public void resetBuffer() {
		if (isCapturing()) {
			this.buffer.reset();
		}
		super.resetBuffer();
	}

	@Override
	public void reset() {
		if (isCapturing()) {
			this.buffer.reset();
		}
		super.reset();
	}

	@Override
	public void setContentLength(int len) {
		if (!isCapturing()) {
			super.setContentLength(len);
		}
	}

	@Override
	public void setContentLengthLong(long len) {
		if (!isCapturing()) {
			super.setContentLengthLong(len);
		}
	}

	@Override
	public void setHeader(String name, String value) {
		if (!isCapturing() || !"Content-Length".equalsIgnoreCase(name)) {
			super.setHeader(name, value);
		}
	}

	@Override
	public void addHeader(String name, String value) {
		if (!isCapturing() || !"Content-Length".equalsIgnoreCase(name)) {
			super.addHeader(name, value);
		}
	}

	@Override
	public void sendError(int status) throws IOException {
		sendError(status, null);
	}

	@Override
	public void sendError(int status, String message) throws IOException {
		if (!isCapturing()) {
			super.sendError(status, message);
			return;
		}
		this.buffer.reset();
		this.errorSent = true;
		setStatus(status);
	}

	@Override
	public void sendRedirect(String location) throws IOException {
		sendRedirect(location, SC_FOUND, true);
	}

	@Override
	public void sendRedirect(String location, int status, boolean clearBuffer) throws IOException {
		if (!isCapturing()) {
			super.sendRedirect(location, status, clearBuffer);
			return;
		}
		if (clearBuffer) {
			this.buffer.reset();
		}
		setStatus(status);
		setHeader("Location", location);
	}

	private static final class CaptureStream extends ServletOutputStream {

		private final FastByteArrayOutputStream buffer;

		CaptureStream(FastByteArrayOutputStream buffer) {
			this.buffer = buffer;
		}

		@Override
		public void write(int b) throws IOException {
			this.buffer.write(b);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			this.buffer.write(b, off, len);
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			throw new UnsupportedOperationException("The response of an idempotent request is buffered");
		}

	}

}
