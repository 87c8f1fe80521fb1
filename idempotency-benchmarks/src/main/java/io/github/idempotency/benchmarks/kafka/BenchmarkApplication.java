package io.github.idempotency.benchmarks.kafka;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The application the Kafka benchmark runs: Spring Boot's auto-configuration, the starter's
 * included, and the three listeners.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(BenchmarkListeners.class)
class BenchmarkApplication {

}
