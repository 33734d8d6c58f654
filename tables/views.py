from django.shortcuts import render

from rules.ruleset import RULESETS


def home(request):
    return render(request, "home.html", {"rulesets": RULESETS.values()})
