"""server: a table's time zone (crossword daily mode's midnight) and the version its
snapshot was taken at (snapshots are written every few events, not at every one)

Revision ID: 0005_server_days
Revises: 0004_server_tables
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_server_days"
down_revision = "0004_server_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("time_zone", sa.String(64), nullable=False, server_default="UTC")
        )
        batch.add_column(
            sa.Column("snapshot_version", sa.Integer(), nullable=False, server_default="0")
        )
    # a table stored before this revision has its snapshot at its version
    op.execute("UPDATE game_tables SET snapshot_version = version")


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("snapshot_version")
        batch.drop_column("time_zone")
