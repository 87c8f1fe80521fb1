package io.github.idempotency.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * A payments service whose writes are safe to retry with {@code @Idempotent}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SamplePaymentsApplication {

	public static void main(String[] args) {
		SpringApplication.run(SamplePaymentsApplication.class, args);
	}

}
