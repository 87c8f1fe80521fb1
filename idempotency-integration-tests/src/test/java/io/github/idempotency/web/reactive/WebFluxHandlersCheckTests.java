package io.github.idempotency.web.reactive;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import reactor.core.publisher.Mono;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The WebFlux handlers the reactive entry point cannot guard as declared fail the start, and the
 * failure says which and what to change; the others start.
 */
class WebFluxHandlersCheckTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, WebFluxAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyWebFluxAutoConfiguration.class, IdempotencyReactiveTenantAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:webflux-${random.uuid}", "idempotency.purge.cron=-");

	@Test
	void aHandlerReturningAMonoStarts() {
		this.runner.withUserConfiguration(MonoController.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ReactiveWebIdempotencyHandler.class)
				.hasSingleBean(ReactiveTenantResolver.class));
	}

	@Test
	void anAtomicHandlerFailsTheStartAndTheFailureSaysToRunItLeased() {
		this.runner.withUserConfiguration(AtomicController.class).run((context) -> {
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("run ATOMIC")
				.contains(AtomicController.class.getName() + ".pay (operation 'pay')");
			assertThat(analysis.getAction()).contains("LEASED");
		});
	}

	@Test
	void anOperationSetAtomicByPropertyFailsTheStartToo() {
		this.runner.withUserConfiguration(MonoController.class)
			.withPropertyValues("idempotency.operations.pay.mode=ATOMIC")
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
				.contains(MonoController.class.getName() + ".pay (operation 'pay')"));
	}

	@Test
	void anOperationWithAcceptAfterStartsAndServesTheStatusOfItsAcceptedRequests() {
		this.runner.withUserConfiguration(MonoController.class)
			.withPropertyValues("idempotency.operations.pay.accept-after=1s")
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean("idempotencyOperationStatusRoutes")
				.isInstanceOf(RouterFunction.class));
		this.runner.withUserConfiguration(MonoController.class)
			.run((context) -> assertThat(context).doesNotHaveBean("idempotencyOperationStatusRoutes"));
	}

	@Test
	void aFunctionalRouteOfAnOperationWithAcceptAfterIsRefusedWithWhatToDo() {
		this.runner.withPropertyValues("idempotency.operations.routed.accept-after=1s")
			.run((context) -> assertThatIllegalStateException()
				.isThrownBy(() -> context.getBean(IdempotentRoutes.class).operation("routed"))
				.withMessageContaining("functional routes do not serve")
				.withMessageContaining("idempotency.operations.routed.accept-after"));
	}

	@Test
	void aHandlerReturningAPlainValueFailsTheStartAndTheFailureSaysToReturnAMono() {
		this.runner.withUserConfiguration(PlainController.class).run((context) -> {
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("return neither a Mono nor a Flux")
				.contains(PlainController.class.getName() + ".pay");
			assertThat(analysis.getAction()).contains("Mono<ResponseEntity<T>>");
		});
	}

	private static FailureAnalysis analysis(Throwable failure) {
		Throwable cause = failure;
		while (!(cause instanceof WebFluxHandlersUnsupportedException)) {
			assertThat(cause).as("the start-up failure's causes").isNotNull();
			cause = cause.getCause();
		}
		return new WebFluxHandlersUnsupportedFailureAnalyzer().analyze(cause);
	}

	@RestController
	static class MonoController {

		@PostMapping("/payments")
		@Idempotent(operation = "pay")
		Mono<String> pay() {
			return Mono.just("paid");
		}

	}

	@RestController
	static class AtomicController {

		@PostMapping("/payments")
		@Idempotent(operation = "pay", mode = IdempotencyMode.ATOMIC)
		Mono<String> pay() {
			return Mono.just("paid");
		}

	}

	@RestController
	static class PlainController {

		@PostMapping("/payments")
		@Idempotent(operation = "pay")
		String pay() {
			return "paid";
		}

	}

}
