"""The journal's first schema: entries and each journal's head (docs/journal.md, "Databases").

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``journal_entry`` and ``journal_head``."""
    op.create_table(
        "journal_entry",
        sa.Column("journal", sa.String(100), primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("time", sa.String(40), nullable=False),
        sa.Column("who", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("prev", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("journal", "hash", name="uq_journal_entry_hash"),
    )
    op.create_table(
        "journal_head",
        sa.Column("journal", sa.String(100), primary_key=True),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("journal_head")
    op.drop_table("journal_entry")
