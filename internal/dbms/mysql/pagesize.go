package mysql

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.FixedPageSize = (*Engine)(nil)

// FixedPageSize: InnoDB's page size belongs to the instance.
func (e *Engine) FixedPageSize() string {
	return "InnoDB's page size (innodb_page_size) is fixed when the instance is initialised"
}
