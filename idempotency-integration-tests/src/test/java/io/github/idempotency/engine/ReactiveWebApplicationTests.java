package io.github.idempotency.engine;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;
import io.github.idempotency.web.reactive.IdempotencyWebFluxAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reactive methods: without the WebFlux module a Spring WebFlux application does not start with
 * {@code @Idempotent} handlers that would be answered 500, nor does any application with
 * {@code @Idempotent} bean methods returning a reactive type, which would run unguarded; the
 * failure says why. Blocking bean methods with a key expression are guarded as anywhere else, and
 * Spring MVC handlers that return a {@code Mono} are the web entry point's.
 */
class ReactiveWebApplicationTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:reactive-${random.uuid}", "idempotency.purge.cron=-");

	@Test
	void withoutTheWebFluxModuleAWebFluxHandlerReturningAMonoFailsTheStartAndTheFailureNamesIt() {
		this.runner.withUserConfiguration(MonoController.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("without the starter's WebFlux module")
				.contains(MonoController.class.getName() + ".pay");
			assertThat(analysis.getAction()).contains("idempotency-webflux");
		});
	}

	@Test
	void withoutTheWebFluxModuleAWebFluxHandlerReturningAPlainValueFailsTheStartToo() {
		this.runner.withUserConfiguration(PlainController.class)
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
				.contains(PlainController.class.getName() + ".pay"));
	}

	@Test
	void withTheWebFluxModuleWebFluxHandlersAreItsOwn() {
		this.runner.withConfiguration(AutoConfigurations.of(IdempotencyWebFluxAutoConfiguration.class))
			.withUserConfiguration(MonoController.class)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(ReactiveHandlersCheck.class));
	}

	@Test
	void aBeanMethodReturningAFluxFailsTheStart() {
		this.runner.withUserConfiguration(FluxService.class)
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
				.contains(Refunds.class.getName() + ".refunds"));
	}

	@Test
	void aBlockingBeanMethodWithAKeyExpressionIsGuardedOnce() {
		this.runner.withUserConfiguration(BlockingService.class).run((context) -> {
			assertThat(context).hasNotFailed();
			BlockingService service = context.getBean(BlockingService.class);
			assertThat(service.pay("p-1")).isEqualTo("paid p-1 (1)");
			assertThat(service.pay("p-1")).isEqualTo("paid p-1 (1)");
		});
	}

	@Test
	void outsideAReactiveWebApplicationABeanMethodReturningAFluxFailsTheStartToo() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:plain-${random.uuid}", "idempotency.purge.cron=-")
			.withUserConfiguration(FluxService.class)
			.run((context) -> {
				FailureAnalysis analysis = analysis(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("return a reactive type")
					.contains(Refunds.class.getName() + ".refunds");
			});
	}

	@Test
	void inAServletApplicationControllersReturningAMonoAreLeftToSpringMvc() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:servlet-${random.uuid}", "idempotency.purge.cron=-")
			.withUserConfiguration(MonoController.class, BlockingService.class)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(ReactiveHandlersCheck.class));
	}

	@Test
	void withIdempotencyDisabledTheApplicationStartsUnguarded() {
		this.runner.withUserConfiguration(MonoController.class)
			.withPropertyValues("idempotency.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ReactiveHandlersCheck.class));
	}

	private static FailureAnalysis analysis(Throwable failure) {
		Throwable cause = failure;
		while (!(cause instanceof ReactiveHandlersUnsupportedException)) {
			assertThat(cause).as("the start-up failure's causes").isNotNull();
			cause = cause.getCause();
		}
		return new ReactiveHandlersUnsupportedFailureAnalyzer().analyze(cause);
	}

	@RestController
	static class MonoController {

		@PostMapping("/payments")
		@Idempotent(operation = "pay")
		public Mono<String> pay() {
			return Mono.just("paid");
		}

	}

	@RestController
	static class PlainController {

		@PostMapping("/payments")
		@Idempotent(operation = "pay")
		public String pay() {
			return "paid";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FluxService {

		@Bean
		Refunds refunds() {
			return new Refunds();
		}

	}

	static class Refunds {

		@Idempotent(operation = "refunds", key = "#paymentId")
		public Flux<String> refunds(String paymentId) {
			return Flux.just("refund of " + paymentId);
		}

	}

	static class BlockingService {

		private int calls;

		@Idempotent(operation = "pay", key = "#paymentId")
		public String pay(String paymentId) {
			return "paid " + paymentId + " (" + (++this.calls) + ")";
		}

	}

}
