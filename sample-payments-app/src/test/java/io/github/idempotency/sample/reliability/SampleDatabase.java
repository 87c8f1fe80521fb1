package io.github.idempotency.sample.reliability;

import io.github.idempotency.testsupport.MariaDbTestDatabase;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * A throw-away database that instances of the sample share: PostgreSQL, which its
 * {@code postgres} profile runs on, or MariaDB, which its {@code mariadb} profile runs on.
 */
interface SampleDatabase {

	/**
	 * Return a reader of what requests left in the database.
	 * @param redis the records in Redis, or {@code null} where they are in the database
	 * @return the reader
	 */
	ReliabilityDatabase reader(RedisRecords redis);

	/**
	 * Start an instance of the sample in this JVM on the database.
	 * @param arguments further arguments
	 * @return the running instance
	 */
	SampleInstance startInstance(String... arguments);

	/**
	 * Start the packaged sample as a process of its own on the database.
	 * @param name a name for the log file
	 * @param arguments further arguments
	 * @return the running process
	 */
	SampleProcess startProcess(String name, String... arguments);

	/**
	 * Create a new PostgreSQL database.
	 * @param prefix a short prefix naming the test
	 * @return the database
	 */
	static SampleDatabase postgres(String prefix) {
		PostgresTestDatabase database = PostgresTestDatabase.create(prefix);
		return new SampleDatabase() {

			@Override
			public ReliabilityDatabase reader(RedisRecords redis) {
				return new ReliabilityDatabase(database, redis);
			}

			@Override
			public SampleInstance startInstance(String... arguments) {
				return SampleInstance.start(database, arguments);
			}

			@Override
			public SampleProcess startProcess(String name, String... arguments) {
				return SampleProcess.start(database, name, arguments);
			}

		};
	}

	/**
	 * Create a new MariaDB database, which keeps the idempotency records too.
	 * @param prefix a short prefix naming the test
	 * @return the database
	 */
	static SampleDatabase mariadb(String prefix) {
		MariaDbTestDatabase database = MariaDbTestDatabase.create(prefix);
		return new SampleDatabase() {

			@Override
			public ReliabilityDatabase reader(RedisRecords redis) {
				if (redis != null) {
					throw new IllegalArgumentException("The MariaDB scenarios keep the records in MariaDB");
				}
				return new ReliabilityDatabase(database);
			}

			@Override
			public SampleInstance startInstance(String... arguments) {
				return SampleInstance.start(database, arguments);
			}

			@Override
			public SampleProcess startProcess(String name, String... arguments) {
				return SampleProcess.start(database, name, arguments);
			}

		};
	}

}
