package io.github.idempotency.adoption.clinic;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small clinic REST application, shaped like the usual open-source Spring Boot ones, that adds
 * the idempotency starter the way the README says: the dependency and {@code @Idempotent}.
 */
@SpringBootApplication
public class ClinicApplication {

	public static void main(String[] args) {
		SpringApplication.run(ClinicApplication.class, args);
	}

}
