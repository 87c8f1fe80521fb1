package io.github.idempotency.autoconfigure;

import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.web.method.HandlerMethod;

import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.openapi.IdempotencyOperationCustomizer;

/**
 * {@link EnableAutoConfiguration Auto-configuration} that documents {@code @Idempotent}
 * operations in springdoc-openapi's description, when springdoc is present.
 */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class)
@ConditionalOnClass({ OperationCustomizer.class, HandlerMethod.class })
@ConditionalOnBean(IdempotentAttributeSource.class)
public final class IdempotencyOpenApiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotencyOperationCustomizer idempotencyOperationCustomizer(IdempotentAttributeSource attributeSource,
			IdempotencyProperties properties) {
		return new IdempotencyOperationCustomizer(attributeSource, properties.getKeyHeader());
	}

}
