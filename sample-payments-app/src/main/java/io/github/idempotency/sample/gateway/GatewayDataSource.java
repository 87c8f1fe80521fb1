package io.github.idempotency.sample.gateway;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.stereotype.Component;

/**
 * The fake gateway's own connection pool on the application's database, so that a payment whose
 * transaction holds an application connection never waits for a second one from the same pool.
 */
@Component
class GatewayDataSource implements DisposableBean {

	private final HikariDataSource dataSource;

	GatewayDataSource(DataSourceProperties properties, GatewayProperties gateway) {
		this.dataSource = properties.initializeDataSourceBuilder().type(HikariDataSource.class).build();
		this.dataSource.setPoolName("gateway");
		this.dataSource.setMaximumPoolSize(gateway.poolSize());
		this.dataSource.setMinimumIdle(0);
	}

	HikariDataSource dataSource() {
		return this.dataSource;
	}

	@Override
	public void destroy() {
		this.dataSource.close();
	}

}
