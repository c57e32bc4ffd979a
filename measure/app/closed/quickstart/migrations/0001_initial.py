from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import migrations, models


def create_admin(apps, schema_editor):
    # The quickstart's one user, so `/users/` returns what seed 001's did.
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    User.objects.create(
        username="admin", email="admin@example.com", password=make_password(None), is_staff=True, is_superuser=True
    )
    # Seed 003's page shows 20 entries from the start.
    Entry = apps.get_model("quickstart", "Entry")
    Entry.objects.bulk_create([Entry(text=f"entry {i}") for i in range(1, 21)])


class Migration(migrations.Migration):
    initial = True
    dependencies = [migrations.swappable_dependency(settings.AUTH_USER_MODEL)]
    operations = [
        migrations.CreateModel(
            name="Entry",
            fields=[
                ("id", models.AutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("text", models.CharField(max_length=200)),
                ("created", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.RunPython(create_admin, migrations.RunPython.noop),
    ]
