"""server accounts people can manage: a disabled or deleted account (kept as a placeholder
so finished games still name a seat), and when each login was last used

Revision ID: 0007_accounts
Revises: 0006_one_seat_per_account
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_accounts"
down_revision = "0006_one_seat_per_account"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("auth_tokens") as batch:
        batch.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("auth_tokens") as batch:
        batch.drop_column("last_used_at")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("deleted_at")
        batch.drop_column("disabled_at")
