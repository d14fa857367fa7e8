"""server tables: no snapshot on the table row (a table is rebuilt by replaying its whole
log, so the snapshot saved no work; it is dropped with the version it was taken at)

Revision ID: 0008_no_table_snapshot
Revises: 0007_accounts
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_no_table_snapshot"
down_revision = "0007_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("snapshot_version")
        batch.drop_column("snapshot")


def downgrade() -> None:
    # the snapshots are not rebuilt (that takes the engine): the older server refuses a
    # started table without one as corrupt, so downgrade only a database with no table in play
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("snapshot", sa.JSON(), nullable=True))
        batch.add_column(
            sa.Column("snapshot_version", sa.Integer(), nullable=False, server_default="0")
        )
