package io.github.idempotency.web.servlet;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.util.LinkedCaseInsensitiveMap;

/**
 * A response with no client behind it, for rendering the late result of asynchronous work whose
 * request has ended: it keeps the status and headers; {@link CapturingResponse} around it keeps
 * the body.
 */
final class DetachedResponse implements HttpServletResponse {

	private final Map<String, List<String>> headers = new LinkedCaseInsensitiveMap<>(Locale.ROOT);

	private int status = SC_OK;

	private @Nullable String characterEncoding;

	private Locale locale = Locale.getDefault();

	private int bufferSize = 8192;

	@Override
	public void addCookie(Cookie cookie) {
		// Never stored or replayed.
	}

	@Override
	public boolean containsHeader(String name) {
		return this.headers.containsKey(name);
	}

	@Override
	public String encodeURL(String url) {
		return url;
	}

	@Override
	public String encodeRedirectURL(String url) {
		return url;
	}

	@Override
	public void sendError(int sc, String msg) {
		this.status = sc;
	}

	@Override
	public void sendError(int sc) {
		this.status = sc;
	}

	@Override
	public void sendRedirect(String location, int sc, boolean clearBuffer) {
		this.status = sc;
		setHeader(HttpHeaders.LOCATION, location);
	}

	@Override
	public void setDateHeader(String name, long date) {
		HttpHeaders formatted = new HttpHeaders();
		formatted.setDate(name, date);
		setHeader(name, formatted.getFirst(name));
	}

	@Override
	public void addDateHeader(String name, long date) {
		HttpHeaders formatted = new HttpHeaders();
		formatted.setDate(name, date);
		addHeader(name, formatted.getFirst(name));
	}

	@Override
	public void setHeader(String name, @Nullable String value) {
		if (value == null) {
			this.headers.remove(name);
		}
		else {
			this.headers.put(name, new ArrayList<>(List.of(value)));
		}
	}

	@Override
	public void addHeader(String name, @Nullable String value) {
		if (value != null) {
			this.headers.computeIfAbsent(name, (key) -> new ArrayList<>()).add(value);
		}
	}

	@Override
	public void setIntHeader(String name, int value) {
		setHeader(name, Integer.toString(value));
	}

	@Override
	public void addIntHeader(String name, int value) {
		addHeader(name, Integer.toString(value));
	}

	@Override
	public void setStatus(int sc) {
		this.status = sc;
	}

	@Override
	public int getStatus() {
		return this.status;
	}

	@Override
	public @Nullable String getHeader(String name) {
		List<String> values = this.headers.get(name);
		return (values != null && !values.isEmpty()) ? values.get(0) : null;
	}

	@Override
	public Collection<String> getHeaders(String name) {
		return List.copyOf(this.headers.getOrDefault(name, List.of()));
	}

	@Override
	public Collection<String> getHeaderNames() {
		return List.copyOf(this.headers.keySet());
	}

	@Override
	public String getCharacterEncoding() {
		return (this.characterEncoding != null) ? this.characterEncoding : StandardCharsets.ISO_8859_1.name();
	}

	@Override
	public @Nullable String getContentType() {
		return getHeader(HttpHeaders.CONTENT_TYPE);
	}

	@Override
	public ServletOutputStream getOutputStream() {
		throw new IllegalStateException("The body of a detached response is captured");
	}

	@Override
	public PrintWriter getWriter() {
		throw new IllegalStateException("The body of a detached response is captured");
	}

	@Override
	public void setCharacterEncoding(@Nullable String charset) {
		this.characterEncoding = charset;
		String contentType = getContentType();
		if (contentType != null && charset != null) {
			setHeader(HttpHeaders.CONTENT_TYPE,
					new MediaType(MediaType.parseMediaType(contentType), java.nio.charset.Charset.forName(charset))
						.toString());
		}
	}

	@Override
	public void setContentLength(int len) {
	}

	@Override
	public void setContentLengthLong(long len) {
	}

	@Override
	public void setContentType(@Nullable String type) {
		if (type == null) {
			this.headers.remove(HttpHeaders.CONTENT_TYPE);
			return;
		}
		MediaType mediaType = MediaType.parseMediaType(type);
		if (mediaType.getCharset() != null) {
			this.characterEncoding = mediaType.getCharset().name();
		}
		setHeader(HttpHeaders.CONTENT_TYPE, type);
	}

	@Override
	public void setBufferSize(int size) {
		this.bufferSize = size;
	}

	@Override
	public int getBufferSize() {
		return this.bufferSize;
	}

	@Override
	public void flushBuffer() {
	}

	@Override
	public void resetBuffer() {
	}

	@Override
	public boolean isCommitted() {
		return false;
	}

	@Override
	public void reset() {
		this.headers.clear();
		this.status = SC_OK;
		this.characterEncoding = null;
	}

	@Override
	public void setLocale(Locale locale) {
		this.locale = locale;
	}

	@Override
	public Locale getLocale() {
		return this.locale;
	}

}
