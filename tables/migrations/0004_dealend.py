from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_challenges"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="move_log",
            field=models.BooleanField(default=True),
        ),
    ]
