package io.github.idempotency.web.reactive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerInitializedEvent;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import reactor.core.publisher.Mono;

import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application whose server starts on a Reactor Netty that can leave a keep-alive
 * connection unread is told, with the version to move to; one on a fixed Reactor Netty, or serving
 * on another server, is told nothing.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReactorNettyVersionCheckTests {

	@Test
	void aServerStartedOnReactorNetty137IsWarnedAboutWithTheVersionToMoveTo(CapturedOutput output) {
		WebServer netty = new NettyReactiveWebServerFactory(0).getWebServer((request, response) -> Mono.empty());
		new ReactorNettyVersionCheck("1.3.7").onApplicationEvent(new ReactiveWebServerInitializedEvent(netty, null));
		assertThat(output).contains("Reactor Netty 1.3.7 can stop reading a keep-alive connection")
			.contains("reactor-netty#4347")
			.contains("Use Reactor Netty 1.3.8 or later")
			.contains("reactor-bom.version=2025.0.8");
	}

	@Test
	void aServerOfAnotherKindIsNotWarnedAboutWhenReactorNettyServesOnlyAsAClient(CapturedOutput output) {
		new ReactorNettyVersionCheck("1.3.7")
			.onApplicationEvent(new ReactiveWebServerInitializedEvent(new OtherWebServer(), null));
		assertThat(output).doesNotContain("can stop reading a keep-alive connection");
	}

	@Test
	void everyReleaseBefore138IsWarnedAboutAndNoneFrom138On() {
		assertThat(new ReactorNettyVersionCheck("1.3.0").warning()).isPresent();
		assertThat(new ReactorNettyVersionCheck("1.2.18").warning()).isPresent();
		assertThat(new ReactorNettyVersionCheck("1.3.8").warning()).isEmpty();
		assertThat(new ReactorNettyVersionCheck("1.3.10").warning()).isEmpty();
		assertThat(new ReactorNettyVersionCheck("1.4.0-M1").warning()).isEmpty();
		assertThat(new ReactorNettyVersionCheck("2.0.0").warning()).isEmpty();
	}

	@Test
	void anUnknownVersionIsWarnedAboutNever() {
		assertThat(new ReactorNettyVersionCheck(null).warning()).isEmpty();
		assertThat(new ReactorNettyVersionCheck("snapshot").warning()).isEmpty();
	}

	@Test
	void theApplicationsOwnReactorNettyIsCheckedAtStartUpAndThisBuildsIsNotWarnedAbout(CapturedOutput output) {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, WebFluxAutoConfiguration.class,
					IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
					IdempotencyWebFluxAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:nettycheck-${random.uuid}", "idempotency.purge.cron=-")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(ReactorNettyVersionCheck.class);
				assertThat(context.getBean(ReactorNettyVersionCheck.class).warning()).isEmpty();
			});
		ReactorNettyVersionCheck build = ReactorNettyVersionCheck.onClassPath(getClass().getClassLoader());
		assertThat(ReactorNettyVersionCheck.servesOnReactorNetty(
				new NettyReactiveWebServerFactory(0).getWebServer((request, response) -> Mono.empty())))
			.isTrue();
		assertThat(build.version()).matches("1\\.\\d+\\.\\d+.*");
		assertThat(build.warning()).isEmpty();
		assertThat(output).doesNotContain("can stop reading a keep-alive connection");
	}

	/** A web server that is not Reactor Netty's, as Tomcat's or Jetty's would be. */
	private static final class OtherWebServer implements WebServer {

		@Override
		public void start() {
		}

		@Override
		public void stop() {
		}

		@Override
		public int getPort() {
			return 8080;
		}

	}

}
