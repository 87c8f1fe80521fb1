package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The {@code DataSource} of the idempotency records, decided once: the one qualified
 * {@link IdempotencyDataSource}, or else the application's only one.
 *
 * @param dataSource the data source
 * @param applications whether it is the application's own, whose transactions the store's writes
 * join
 */
record RecordsDataSource(DataSource dataSource, boolean applications) {

	static RecordsDataSource of(ObjectProvider<DataSource> qualified, ObjectProvider<DataSource> application) {
		DataSource own = application.getIfUnique();
		DataSource records = qualified.getIfAvailable();
		if (records == null) {
			return new RecordsDataSource(application.getObject(), true);
		}
		return new RecordsDataSource(records, records == own);
	}

}
