package io.github.idempotency.hsqlapp;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * An application whose tests run on HSQLDB, a database the starter's JDBC store does not
 * support; it counts the runs of its one {@code @Idempotent} operation.
 */
@SpringBootApplication
public class HsqlApplication {

	@Bean
	Runs runs() {
		return new Runs();
	}

	/**
	 * How many times the operation ran.
	 */
	public static class Runs {

		private final AtomicInteger count = new AtomicInteger();

		public int count() {
			return this.count.get();
		}

		int increment() {
			return this.count.incrementAndGet();
		}

	}

	@RestController
	static class OrdersController {

		private final Runs runs;

		OrdersController(Runs runs) {
			this.runs = runs;
		}

		@Idempotent(operation = "place-order")
		@PostMapping("/orders")
		@ResponseStatus(HttpStatus.CREATED)
		Map<String, Object> place(@RequestBody Map<String, Object> order) {
			return Map.of("item", order.get("item"), "run", this.runs.increment());
		}

	}

}
