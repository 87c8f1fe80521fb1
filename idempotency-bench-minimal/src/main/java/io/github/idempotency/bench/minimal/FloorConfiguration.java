package io.github.idempotency.bench.minimal;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Registers the {@link FloorFilter} when {@code bench.floor} names a mode.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty("bench.floor")
class FloorConfiguration {

	@Bean
	FilterRegistrationBean<FloorFilter> floorFilter(JdbcClient jdbc, PlatformTransactionManager transactionManager,
			@Value("${bench.floor}") String mode) {
		if (!mode.equals("LEASED") && !mode.equals("ATOMIC")) {
			throw new IllegalArgumentException("bench.floor must be LEASED or ATOMIC, not " + mode);
		}
		return new FilterRegistrationBean<>(
				new FloorFilter(jdbc, new TransactionTemplate(transactionManager), mode.equals("ATOMIC")));
	}

}
