package io.github.idempotency.web.reactive;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.util.ClassUtils;

/**
 * Warns when the application's web server starts on a Reactor Netty that can leave a keep-alive
 * connection unread, which guarded requests, answered off the event loop, make likely.
 */
final class ReactorNettyVersionCheck implements ApplicationListener<ReactiveWebServerInitializedEvent> {

	private static final Logger logger = LoggerFactory.getLogger(ReactorNettyVersionCheck.class);

	private static final String HTTP_SERVER = "reactor.netty.http.server.HttpServer";

	private static final String NETTY_WEB_SERVERS = "org.springframework.boot.reactor.netty.";

	private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

	private final @Nullable String version;

	/**
	 * Create the check of a Reactor Netty version.
	 * @param version the version of {@code reactor-netty-http}, or {@code null} if unknown or absent
	 */
	ReactorNettyVersionCheck(@Nullable String version) {
		this.version = version;
	}

	/**
	 * Return the check of the Reactor Netty on the class path, if there is one.
	 * @param classLoader the application's class loader
	 * @return the check
	 */
	static ReactorNettyVersionCheck onClassPath(@Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(HTTP_SERVER, classLoader)) {
			return new ReactorNettyVersionCheck(null);
		}
		Package reactorNetty = ClassUtils.resolveClassName(HTTP_SERVER, classLoader).getPackage();
		return new ReactorNettyVersionCheck((reactorNetty != null) ? reactorNetty.getImplementationVersion() : null);
	}

	@Nullable String version() {
		return this.version;
	}

	/**
	 * Warn if the server that started is Reactor Netty's: an application that serves on Tomcat or
	 * Jetty and has Reactor Netty only for its {@code WebClient} is not concerned.
	 * @param event the event of the server's start
	 */
	@Override
	public void onApplicationEvent(ReactiveWebServerInitializedEvent event) {
		if (servesOnReactorNetty(event.getWebServer())) {
			warning().ifPresent(logger::warn);
		}
	}

	static boolean servesOnReactorNetty(WebServer server) {
		return server.getClass().getName().startsWith(NETTY_WEB_SERVERS);
	}

	/**
	 * Return what to tell the application, if its Reactor Netty is one that stops reading a
	 * keep-alive connection (1.3.7 shown by our suite; earlier 1.3 releases share the code).
	 * @return the warning, or empty
	 */
	Optional<String> warning() {
		if (this.version == null) {
			return Optional.empty();
		}
		Matcher parts = VERSION.matcher(this.version);
		if (!parts.lookingAt()) {
			return Optional.empty();
		}
		int major = Integer.parseInt(parts.group(1));
		int minor = Integer.parseInt(parts.group(2));
		int patch = Integer.parseInt(parts.group(3));
		boolean affected = major == 1 && (minor < 3 || (minor == 3 && patch < 8));
		if (!affected) {
			return Optional.empty();
		}
		return Optional.of("Reactor Netty " + this.version + " can stop reading a keep-alive connection once a "
				+ "request that arrived while another was being answered has been answered (reactor-netty#4347); "
				+ "the connection's next request then waits until its client gives up. @Idempotent requests are "
				+ "answered off the event loop, which makes that likely. Use Reactor Netty 1.3.8 or later: "
				+ "Spring Boot 4.1.2 manages it; with an earlier Spring Boot set the Maven properties "
				+ "reactor-bom.version=2025.0.8 and netty.version=4.2.18.Final (or later).");
	}

}
