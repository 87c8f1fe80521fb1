package io.github.idempotency.bench.minimal;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The smallest real endpoint: one {@code @Transactional} insert answering {@code 201} with a small
 * JSON body, so that the benchmark sees the starter's own cost rather than the application's.
 */
@SpringBootApplication
public class MinimalApplication {

	public static void main(String[] args) {
		SpringApplication.run(MinimalApplication.class, args);
	}

}
