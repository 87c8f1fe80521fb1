package io.github.idempotency.web.servlet;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.util.LinkedCaseInsensitiveMap;

/**
 * A copy of what rendering a handler's result reads of its request (method, path, headers,
 * attributes, principal), kept once the request itself has ended, so that the late result of
 * asynchronous work can still be rendered as the request would have rendered it. Anything else
 * fails with a message.
 */
final class DetachedRequest extends HttpServletRequestWrapper {

	private static final List<String> REQUEST_STATE_ATTRIBUTES = List.of("jakarta.servlet.error.",
			"jakarta.servlet.async.", "org.springframework.boot.web.servlet.error.",
			"org.springframework.boot.webmvc.error.", "org.springframework.web.servlet.DispatcherServlet.EXCEPTION",
			"org.springframework.web.context.request.async.WebAsyncManager", WebIdempotencyExchange.ATTRIBUTE);

	private final String method;

	private final String requestUri;

	private final String requestUrl;

	private final String contextPath;

	private final String servletPath;

	private final @Nullable String pathInfo;

	private final @Nullable String queryString;

	private final String scheme;

	private final String serverName;

	private final int serverPort;

	private final boolean secure;

	private final String protocol;

	private final String remoteAddr;

	private final @Nullable String contentType;

	private final @Nullable String characterEncoding;

	private final List<Locale> locales;

	private final Map<String, List<String>> headers = new LinkedCaseInsensitiveMap<>(Locale.ROOT);

	private final Map<String, String[]> parameters;

	private final Map<String, Object> attributes = new ConcurrentHashMap<>();

	private final @Nullable Principal principal;

	private final ServletContext servletContext;

	private DetachedRequest(HttpServletRequest request) {
		super(unavailable());
		this.method = request.getMethod();
		this.requestUri = request.getRequestURI();
		this.requestUrl = request.getRequestURL().toString();
		this.contextPath = request.getContextPath();
		this.servletPath = request.getServletPath();
		this.pathInfo = request.getPathInfo();
		this.queryString = request.getQueryString();
		this.scheme = request.getScheme();
		this.serverName = request.getServerName();
		this.serverPort = request.getServerPort();
		this.secure = request.isSecure();
		this.protocol = request.getProtocol();
		this.remoteAddr = request.getRemoteAddr();
		this.contentType = request.getContentType();
		this.characterEncoding = request.getCharacterEncoding();
		this.locales = Collections.list(request.getLocales());
		for (String name : Collections.list(request.getHeaderNames())) {
			this.headers.put(name, Collections.list(request.getHeaders(name)));
		}
		this.parameters = new LinkedHashMap<>(request.getParameterMap());
		for (String name : Collections.list(request.getAttributeNames())) {
			Object value = request.getAttribute(name);
			if (value != null && REQUEST_STATE_ATTRIBUTES.stream().noneMatch(name::startsWith)) {
				this.attributes.put(name, value);
			}
		}
		this.principal = request.getUserPrincipal();
		this.servletContext = request.getServletContext();
	}

	/**
	 * Copy what rendering reads of a request that is still going on.
	 * @param request the request
	 * @return the copy
	 */
	static DetachedRequest of(HttpServletRequest request) {
		return new DetachedRequest(request);
	}

	private static HttpServletRequest unavailable() {
		return (HttpServletRequest) Proxy.newProxyInstance(DetachedRequest.class.getClassLoader(),
				new Class<?>[] { HttpServletRequest.class }, (proxy, method, args) -> {
					if (method.getDeclaringClass() == Object.class) {
						return switch (method.getName()) {
							case "equals" -> proxy == args[0];
							case "hashCode" -> System.identityHashCode(proxy);
							default -> "DetachedRequest";
						};
					}
					throw new IllegalStateException("The request has ended; " + method.getName()
							+ " is not available to render the late result of its asynchronous work");
				});
	}

	@Override
	public String getMethod() {
		return this.method;
	}

	@Override
	public String getRequestURI() {
		return this.requestUri;
	}

	@Override
	public StringBuffer getRequestURL() {
		return new StringBuffer(this.requestUrl);
	}

	@Override
	public String getContextPath() {
		return this.contextPath;
	}

	@Override
	public String getServletPath() {
		return this.servletPath;
	}

	@Override
	public @Nullable String getPathInfo() {
		return this.pathInfo;
	}

	@Override
	public @Nullable String getQueryString() {
		return this.queryString;
	}

	@Override
	public String getScheme() {
		return this.scheme;
	}

	@Override
	public String getServerName() {
		return this.serverName;
	}

	@Override
	public int getServerPort() {
		return this.serverPort;
	}

	@Override
	public boolean isSecure() {
		return this.secure;
	}

	@Override
	public String getProtocol() {
		return this.protocol;
	}

	@Override
	public String getRemoteAddr() {
		return this.remoteAddr;
	}

	@Override
	public String getRemoteHost() {
		return this.remoteAddr;
	}

	@Override
	public @Nullable String getContentType() {
		return this.contentType;
	}

	@Override
	public @Nullable String getCharacterEncoding() {
		return this.characterEncoding;
	}

	@Override
	public int getContentLength() {
		return -1;
	}

	@Override
	public long getContentLengthLong() {
		return -1;
	}

	@Override
	public ServletInputStream getInputStream() {
		ByteArrayInputStream empty = new ByteArrayInputStream(new byte[0]);
		return new ServletInputStream() {

			@Override
			public int read() {
				return empty.read();
			}

			@Override
			public boolean isFinished() {
				return true;
			}

			@Override
			public boolean isReady() {
				return true;
			}

			@Override
			public void setReadListener(ReadListener listener) {
				throw new UnsupportedOperationException();
			}

		};
	}

	@Override
	public BufferedReader getReader() {
		return new BufferedReader(new StringReader(""));
	}

	@Override
	public Locale getLocale() {
		return this.locales.isEmpty() ? Locale.getDefault() : this.locales.get(0);
	}

	@Override
	public Enumeration<Locale> getLocales() {
		return Collections.enumeration(this.locales);
	}

	@Override
	public @Nullable String getHeader(String name) {
		List<String> values = this.headers.get(name);
		return (values != null && !values.isEmpty()) ? values.get(0) : null;
	}

	@Override
	public Enumeration<String> getHeaders(String name) {
		return Collections.enumeration(this.headers.getOrDefault(name, List.of()));
	}

	@Override
	public Enumeration<String> getHeaderNames() {
		return Collections.enumeration(new ArrayList<>(this.headers.keySet()));
	}

	@Override
	public int getIntHeader(String name) {
		String value = getHeader(name);
		return (value != null) ? Integer.parseInt(value) : -1;
	}

	@Override
	public long getDateHeader(String name) {
		String value = getHeader(name);
		if (value == null) {
			return -1;
		}
		HttpHeaders parsed = new HttpHeaders();
		parsed.set(name, value);
		return parsed.getFirstDate(name);
	}

	@Override
	public @Nullable String getParameter(String name) {
		String[] values = this.parameters.get(name);
		return (values != null && values.length > 0) ? values[0] : null;
	}

	@Override
	public Map<String, String[]> getParameterMap() {
		return Collections.unmodifiableMap(this.parameters);
	}

	@Override
	public Enumeration<String> getParameterNames() {
		return Collections.enumeration(this.parameters.keySet());
	}

	@Override
	public String @Nullable [] getParameterValues(String name) {
		return this.parameters.get(name);
	}

	@Override
	public @Nullable Object getAttribute(String name) {
		return this.attributes.get(name);
	}

	@Override
	public Enumeration<String> getAttributeNames() {
		return Collections.enumeration(new ArrayList<>(this.attributes.keySet()));
	}

	@Override
	public void setAttribute(String name, @Nullable Object value) {
		if (value == null) {
			this.attributes.remove(name);
		}
		else {
			this.attributes.put(name, value);
		}
	}

	@Override
	public void removeAttribute(String name) {
		this.attributes.remove(name);
	}

	@Override
	public @Nullable Principal getUserPrincipal() {
		return this.principal;
	}

	@Override
	public @Nullable String getRemoteUser() {
		return (this.principal != null) ? this.principal.getName() : null;
	}

	@Override
	public boolean isUserInRole(String role) {
		return false;
	}

	@Override
	public @Nullable HttpSession getSession(boolean create) {
		if (create) {
			throw new IllegalStateException("The request has ended; no session can be created for it");
		}
		return null;
	}

	@Override
	public @Nullable HttpSession getSession() {
		return getSession(true);
	}

	@Override
	public DispatcherType getDispatcherType() {
		return DispatcherType.REQUEST;
	}

	@Override
	public ServletContext getServletContext() {
		return this.servletContext;
	}

	@Override
	public boolean isAsyncStarted() {
		return false;
	}

	@Override
	public boolean isAsyncSupported() {
		return false;
	}

}
