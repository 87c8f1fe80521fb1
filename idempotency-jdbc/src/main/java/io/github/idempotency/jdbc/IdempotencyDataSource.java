package io.github.idempotency.jdbc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifies the {@code DataSource} that holds the idempotency records when it is not the
 * application's own, such as one beside an R2DBC {@code ConnectionFactory}, for which Spring Boot
 * configures no {@code DataSource}; declare it {@code @Bean(defaultCandidate = false)}, so that it
 * does not become the application's.
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE,
		ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface IdempotencyDataSource {

}
