package io.github.idempotency.sample.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.core.io.ClassPathResource;

import io.github.idempotency.testsupport.MariaDbTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fake gateway on MariaDB, whose InnoDB takes gap locks in {@code REPEATABLE READ}: charges
 * of different keys made at once never fail each other.
 */
class PaymentGatewayMariaDbTests {

	private static final int THREADS = 16;

	private static final int ROUNDS = 40;

	private static final MariaDbTestDatabase database = MariaDbTestDatabase.create("gateway");

	private static GatewayDataSource dataSource;

	private static PaymentGateway gateway;

	@BeforeAll
	static void createTheGatewaysTable() throws IOException, SQLException {
		String ddl = new ClassPathResource("db/mariadb/V2__gateway_charge.sql").getContentAsString(StandardCharsets.UTF_8);
		try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
			for (String sql : ddl.replaceAll("(?m)^--.*$", "").split(";")) {
				if (!sql.isBlank()) {
					statement.execute(sql);
				}
			}
		}
		DataSourceProperties properties = new DataSourceProperties();
		properties.setUrl(database.url());
		properties.setUsername(database.username());
		properties.setPassword(database.password());
		GatewayProperties gatewayProperties = new GatewayProperties(Duration.ZERO, THREADS, null, Duration.ofSeconds(1),
				Duration.ofSeconds(10));
		dataSource = new GatewayDataSource(properties, gatewayProperties);
		gateway = new PaymentGateway(dataSource, gatewayProperties);
	}

	@AfterAll
	static void closePool() {
		dataSource.destroy();
	}

	@Test
	void chargesOfDifferentKeysMadeAtOnceAllSucceedOncePerKey() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		try {
			for (int round = 0; round < ROUNDS; round++) {
				List<Callable<GatewayCharge>> charges = new ArrayList<>();
				for (int i = 0; i < THREADS; i++) {
					String key = "round-" + round + "-key-" + i;
					charges.add(() -> gateway.charge(new ChargeRequest(key, "cus_" + key, 1000, "EUR")));
				}
				for (Future<GatewayCharge> charge : threads.invokeAll(charges)) {
					assertThat(charge.get().attempts()).isOne();
				}
			}
		}
		finally {
			threads.shutdownNow();
		}
		try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
			var rows = statement.executeQuery("SELECT COUNT(*), MAX(attempts) FROM gateway_charge");
			rows.next();
			assertThat(rows.getInt(1)).isEqualTo(THREADS * ROUNDS);
			assertThat(rows.getInt(2)).isOne();
		}
	}

}
