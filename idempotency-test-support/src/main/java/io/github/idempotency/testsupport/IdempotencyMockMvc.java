package io.github.idempotency.testsupport;

import java.util.UUID;

import jakarta.servlet.Filter;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.test.web.servlet.setup.ConfigurableMockMvcBuilder;
import org.springframework.test.web.servlet.setup.MockMvcConfigurer;
import org.springframework.web.context.WebApplicationContext;

/**
 * MockMvc for applications with {@code @Idempotent} handlers: the starter's filter, which
 * {@code MockMvcBuilders.webAppContextSetup} leaves out unless told (Spring Boot's
 * {@code @AutoConfigureMockMvc} adds it), and a fresh {@code Idempotency-Key} for each request.
 *
 * <pre class="code">
 * MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).apply(IdempotencyMockMvc.idempotency()).build();
 * mvc.perform(post("/owners").with(IdempotencyMockMvc.idempotencyKey()).contentType(JSON).content(owner));
 * </pre>
 *
 * @since 0.1.0
 */
public final class IdempotencyMockMvc {

	private static final String FILTER_BEAN = "idempotencyFilter";

	private IdempotencyMockMvc() {
	}

	/**
	 * Return a configurer that adds the starter's filter, from the application context, to a
	 * MockMvc built with {@code webAppContextSetup}.
	 * @return the configurer
	 */
	public static MockMvcConfigurer idempotency() {
		return new MockMvcConfigurer() {

			@Override
			public void afterConfigurerAdded(ConfigurableMockMvcBuilder<?> builder) {
			}

			@Override
			public RequestPostProcessor beforeMockMvcCreated(ConfigurableMockMvcBuilder<?> builder,
					WebApplicationContext context) {
				builder.addFilters(filter(context));
				return null;
			}

		};
	}

	/**
	 * Return a post-processor that sends a new random {@code Idempotency-Key} with a request.
	 * @return the post-processor
	 */
	public static RequestPostProcessor idempotencyKey() {
		return idempotencyKey(UUID.randomUUID().toString());
	}

	/**
	 * Return a post-processor that sends the given {@code Idempotency-Key} with a request.
	 * @param key the key
	 * @return the post-processor
	 */
	public static RequestPostProcessor idempotencyKey(String key) {
		return (request) -> {
			request.addHeader("Idempotency-Key", key);
			return request;
		};
	}

	private static Filter filter(WebApplicationContext context) {
		if (!context.containsBean(FILTER_BEAN)) {
			throw new IllegalStateException("The application context has no '" + FILTER_BEAN + "' bean: is the "
					+ "idempotency starter on the classpath and enabled?");
		}
		Object bean = context.getBean(FILTER_BEAN);
		if (bean instanceof FilterRegistrationBean<?> registration) {
			return registration.getFilter();
		}
		return (Filter) bean;
	}

}
