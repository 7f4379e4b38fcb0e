"""Whether botocore (Debian's python3-botocore) takes each region name, for tst_awsconfig.

stdin: a JSON list of strings. stdout: one line per string, 1 when botocore.utils.validate_region_name takes it, 0
when it raises InvalidRegionError (what the AWS CLI does before any region reaches an endpoint's host name).
"""
import json
import sys

from botocore.exceptions import InvalidRegionError
from botocore.utils import validate_region_name

for region in json.load(sys.stdin):
    try:
        validate_region_name(region)
        print(1)
    except InvalidRegionError:
        print(0)
