package io.github.idempotency.web.servlet;

import io.github.idempotency.web.StoredHeaderPolicy;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.ApplicationContextAssertProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.github.idempotency.Disposition;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyWebMvcAutoConfiguration} in servlet web applications and elsewhere.
 */
class IdempotencyWebMvcAutoConfigurationTests {

	private static final AutoConfigurations IDEMPOTENCY = AutoConfigurations.of(DataSourceAutoConfiguration.class,
			IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
			IdempotencyWebMvcAutoConfiguration.class,
				IdempotencyServletTenantAutoConfiguration.class);

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
				WebMvcAutoConfiguration.class))
		.withConfiguration(IDEMPOTENCY);

	@Test
	void servletWebApplicationGetsTheFilterTheInterceptorAndTheExceptionResolver() {
		this.runner.withUserConfiguration(PaymentsController.class).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(StoredHeaderPolicy.class)
				.hasSingleBean(WebIdempotencyHandler.class)
				.hasSingleBean(WebExecutionFinisher.class)
				.hasSingleBean(IdempotencyHandlerInterceptor.class)
				.hasSingleBean(IdempotencyExceptionResolver.class);
			FilterRegistrationBean<?> registration = context.getBean("idempotencyFilter", FilterRegistrationBean.class);
			assertThat(registration.getFilter()).isInstanceOf(IdempotencyFilter.class);
			// Spring Security's filter chain is registered at -100 by default
			assertThat(registration.getOrder()).isGreaterThan(-100);
			MockHttpServletRequest request = new MockHttpServletRequest("POST", "/payments");
			HandlerExecutionChain chain = context.getBean("requestMappingHandlerMapping",
					RequestMappingHandlerMapping.class)
				.getHandler(request);
			assertThat(chain).isNotNull();
			assertThat(chain.getInterceptorList()).hasAtLeastOneElementOfType(IdempotencyHandlerInterceptor.class);
			assertThat(context.getBeansOfType(HandlerExceptionResolver.class).values())
				.hasAtLeastOneElementOfType(IdempotencyExceptionResolver.class);
		});
	}

	@Test
	void applicationThatIsNotAWebApplicationGetsNoWebBeans() {
		new ApplicationContextRunner().withConfiguration(IDEMPOTENCY).run((context) -> {
			assertThat(context).hasNotFailed();
			assertNoWebBeans(context);
		});
	}

	@Test
	void masterSwitchOffCreatesNoWebBeans() {
		this.runner.withUserConfiguration(PaymentsController.class)
			.withPropertyValues("idempotency.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertNoWebBeans(context);
				HandlerExecutionChain chain = context.getBean("requestMappingHandlerMapping",
						RequestMappingHandlerMapping.class)
					.getHandler(new MockHttpServletRequest("POST", "/payments"));
				assertThat(chain.getInterceptorList()).noneMatch(IdempotencyHandlerInterceptor.class::isInstance);
			});
	}

	@Test
	void storedHeadersIncludeTheConfiguredOnes() {
		this.runner.withPropertyValues("idempotency.stored-headers=X-Request-Trace,ETag")
			.run((context) -> assertThat(context.getBean(StoredHeaderPolicy.class).headers())
				.containsExactly("Content-Type", "Location", "X-Request-Trace", "ETag"));
	}

	@Test
	void storingSetCookieFailsStartUpWithAClearMessage() {
		this.runner.withPropertyValues("idempotency.stored-headers=X-Request-Trace,Set-Cookie")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("'Set-Cookie'")
				.hasMessageContaining("must never be stored"));
	}

	@Test
	void theStatusResourceOfAcceptedRequestsIsServedOnlyWhenAnOperationSetsAcceptAfter() {
		this.runner.withUserConfiguration(PaymentsController.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("idempotencyOperationStatusRoutes"));
		this.runner.withUserConfiguration(PaymentsController.class)
			.withPropertyValues("idempotency.operations[POST /payments].accept-after=2s")
			.run((context) -> assertThat(context).hasNotFailed().hasBean("idempotencyOperationStatusRoutes"));
	}

	@Test
	void acceptAfterOnAnAtomicOperationFailsStartUpWithWhatToDo() {
		this.runner.withUserConfiguration(PaymentsController.class)
			.withPropertyValues("idempotency.operations[POST /payments].accept-after=2s",
					"idempotency.operations[POST /payments].mode=ATOMIC")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'POST /payments' sets accept-after")
				.hasMessageContaining("Run it LEASED"));
	}

	@Test
	void acceptAfterOnAnOperationWhoseHandlerNamesAtomicFailsStartUp() {
		this.runner.withUserConfiguration(AtomicRefundsController.class)
			.withPropertyValues("idempotency.operations.refunds.accept-after=2s")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("'refunds' sets accept-after"));
	}

	@Test
	void storingAuthorizationFailsStartUp() {
		this.runner.withPropertyValues("idempotency.stored-headers=authorization")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'authorization'"));
	}

	@Test
	void userDefinedOutcomeClassifierIsTheOneTheWebLayerUses() {
		this.runner.withBean("userClassifier", OutcomeClassifier.class, StoringClassifier::new).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(OutcomeClassifier.class)
				.hasSingleBean(WebExecutionFinisher.class);
			assertThat(context.getBean(OutcomeClassifier.class)).isInstanceOf(StoringClassifier.class);
		});
	}

	private static void assertNoWebBeans(ApplicationContextAssertProvider<?> context) {
		assertThat(context).doesNotHaveBean(StoredHeaderPolicy.class)
			.doesNotHaveBean(WebIdempotencyHandler.class)
			.doesNotHaveBean(WebExecutionFinisher.class)
			.doesNotHaveBean(IdempotencyHandlerInterceptor.class)
			.doesNotHaveBean(IdempotencyExceptionResolver.class)
			.doesNotHaveBean("idempotencyFilter");
		assertThat(Arrays.asList(context.getBeanNamesForType(FilterRegistrationBean.class)))
			.doesNotContain("idempotencyFilter");
	}

	@Configuration(proxyBeanMethods = false)
	static class PaymentsController {

		@Bean
		Payments payments() {
			return new Payments();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AtomicRefundsController {

		@Bean
		AtomicRefunds atomicRefunds() {
			return new AtomicRefunds();
		}

	}

	@RestController
	static class AtomicRefunds {

		@Idempotent(operation = "refunds", mode = IdempotencyMode.ATOMIC)
		@PostMapping("/refunds")
		String refund() {
			return "refunded";
		}

	}

	@RestController
	static class Payments {

		@Idempotent
		@PostMapping("/payments")
		String create() {
			return "created";
		}

	}

	static class StoringClassifier implements OutcomeClassifier {

		@Override
		public Disposition classify(int status, Throwable failure) {
			return Disposition.STORE;
		}

		@Override
		public Disposition classify(Throwable failure) {
			return Disposition.STORE;
		}

	}

}
