package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when there is a {@code DataSource} for the idempotency records: one qualified
 * {@link IdempotencyDataSource} (which, declared {@code defaultCandidate = false}, bean conditions
 * do not see), or the application's only one.
 */
class OnRecordsDataSourceCondition extends AnyNestedCondition {

	OnRecordsDataSourceCondition() {
		super(ConfigurationPhase.REGISTER_BEAN);
	}

	@ConditionalOnSingleCandidate(DataSource.class)
	static class ApplicationDataSource {

	}

	@Conditional(QualifiedDataSource.class)
	static class IdempotencyQualifiedDataSource {

	}

	static class QualifiedDataSource extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
			if (beanFactory != null) {
				// Neither call initializes a bean to learn its type.
				for (String name : beanFactory.getBeanNamesForType(DataSource.class, true, false)) {
					if (beanFactory.findAnnotationOnBean(name, IdempotencyDataSource.class, false) != null) {
						return ConditionOutcome.match("@IdempotencyDataSource bean '" + name + "' found");
					}
				}
			}
			return ConditionOutcome.noMatch("no @IdempotencyDataSource bean");
		}

	}

}
