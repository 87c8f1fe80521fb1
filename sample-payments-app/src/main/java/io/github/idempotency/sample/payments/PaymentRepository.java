package io.github.idempotency.sample.payments;

import java.util.List;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * Spring Data repository of {@link Payment payments}.
 */
public interface PaymentRepository extends JpaRepository<Payment, Long> {

	Optional<Payment> findByTenantIdAndIdempotencyKey(String tenantId, String idempotencyKey);

	Optional<Payment> findByIdAndTenantId(Long id, String tenantId);

	List<Payment> findByTenantIdAndCustomerIdOrderById(String tenantId, String customerId);

}
